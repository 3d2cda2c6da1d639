#include "idle_children.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

namespace flightrec::bench {

IdleChildren::IdleChildren(long count) {
  pids_.reserve(static_cast<size_t>(count));
  const pid_t parent = ::getpid();
  for (long i = 0; i < count; ++i) {
    const pid_t pid = ::fork();
    if (pid < 0) {
      const int error = errno;
      kill_all();  // the destructor does not run for a constructor that throws
      throw std::runtime_error("fork failed after " + std::to_string(i) +
                               " children: " + std::strerror(error));
    }
    if (pid == 0) {
      // Die with the parent even if it is killed before it can clean up.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(1);
      ::setpgid(0, group_);  // both sides set the group, so neither order races
      for (;;) ::pause();
    }
    ::setpgid(pid, group_ == 0 ? pid : group_);
    if (group_ == 0) group_ = pid;
    pids_.push_back(pid);
  }
}

void IdleChildren::kill_all() {
  if (group_ != 0) ::kill(-group_, SIGKILL);
  for (const pid_t pid : pids_) {
    ::kill(pid, SIGKILL);  // in case it was not in the group yet
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  pids_.clear();
}

bool process_limits_allow(long count) {
  rlimit nproc{};
  if (::getrlimit(RLIMIT_NPROC, &nproc) == 0 && nproc.rlim_cur != RLIM_INFINITY &&
      nproc.rlim_cur < static_cast<rlim_t>(count) + 100) {
    std::fprintf(stderr, "RLIMIT_NPROC %lu is too low for %ld children\n",
                 static_cast<unsigned long>(nproc.rlim_cur), count);
    return false;
  }
  long pid_max = 0;
  if (std::ifstream("/proc/sys/kernel/pid_max") >> pid_max && pid_max < count + 1000) {
    std::fprintf(stderr, "kernel.pid_max %ld is too low for %ld children\n", pid_max, count);
    return false;
  }
  return true;
}

}  // namespace flightrec::bench
