#include "flightrec/common/thread_priority.h"

#include <linux/capability.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "flightrec/common/capabilities.h"

namespace flightrec::priority {
namespace {

bool rtprio_limit_allows() noexcept {
  rlimit limit{};  // RLIM_INFINITY is the largest value, so it passes the comparison too
  return ::getrlimit(RLIMIT_RTPRIO, &limit) == 0 &&
         limit.rlim_cur >= static_cast<rlim_t>(kSamplerFifoPriority);
}

// Why sched_setscheduler refused with `err`, naming what would make it succeed.
std::string describe_refusal(int err) {
  if (err != EPERM) return "sched_setscheduler: " + std::system_category().message(err);
  if (!capabilities::holds(CAP_SYS_NICE) && !rtprio_limit_allows()) {
    return "CAP_SYS_NICE (or an RLIMIT_RTPRIO of at least " + std::to_string(kSamplerFifoPriority) +
           ", e.g. systemd's LimitRTPRIO=" + std::to_string(kSamplerFifoPriority) + ")";
  }
  // Permitted by capability or limit, refused all the same: something above the process.
  return "a real-time budget: the process may use SCHED_FIFO, yet it was refused, by a seccomp "
         "filter (systemd's RestrictRealtime=yes) or a cgroup with no real-time runtime "
         "(cpu.rt_runtime_us 0, kernels built with CONFIG_RT_GROUP_SCHED)";
}

}  // namespace

Status make_calling_thread_realtime() {
  // pid 0 is the calling thread alone; reset-on-fork keeps real-time out of any child process.
  const sched_param param{.sched_priority = kSamplerFifoPriority};
  if (::sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &param) == 0) return {};
  return Error{describe_refusal(errno)};
}

bool make_calling_thread_batch() noexcept {
  const sched_param param{.sched_priority = 0};
  return ::sched_setscheduler(0, SCHED_BATCH, &param) == 0;
}

bool make_calling_thread_lowest() noexcept {
  constexpr int kLowestNice = 19;
  return ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), kLowestNice) == 0;
}

}  // namespace flightrec::priority
