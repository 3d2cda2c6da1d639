#include "container_fixture.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "replay_fixture.h"

namespace flightrec::replay::testing {
namespace {

using container::CgroupStats;
using container::ContainerFrame;
using container::ContainerRow;
using container::FastRead;
using container::kAbsent;
using container::kUnlimited;
using container::ThrottleEpisode;

// The checkout container's counters at `t` ns from the start: they move at each period's end.
struct CheckoutCounters {
  int64_t periods, throttled_periods, throttled_us, usage_us;
};
CheckoutCounters checkout_at(int64_t t) {
  const int64_t n = t / kCfsPeriodNs;
  const int64_t throttled = std::max<int64_t>(n - kFirstThrottledPeriod, 0);
  return {n, throttled, throttled * kThrottledPerPeriodUs,
          10'000 * std::min<int64_t>(n, kFirstThrottledPeriod) + kQuotaUs * throttled};
}

CgroupStats checkout_stats(int k) {
  const int64_t t = k * kContainerFrameNs;
  const auto counters = checkout_at(t);
  CgroupStats s;
  s.cpu.usage_us = counters.usage_us;
  s.cpu.periods = counters.periods;
  s.cpu.throttled_periods = counters.throttled_periods;
  s.cpu.throttled_us = counters.throttled_us;
  s.bandwidth = {.quota_us = kQuotaUs, .period_us = kCfsPeriodNs / 1000};
  s.memory.usage_bytes = (180 + 10 * int64_t{k}) * kMiB;
  s.memory.limit_bytes = 256 * kMiB;
  s.memory.high_bytes = 240 * kMiB;
  s.memory.events = {.low = 0,
                     .high = k >= 4 ? (k - 3) * 10 : 0,
                     .max = k >= 5 ? (k - 4) * 3 : 0,
                     .oom = 0,
                     .oom_kill = 0};
  s.io.count = 1;
  s.io.devices[0] = {
      .major = 8, .minor = 0, .read_bytes = k * 512 * int64_t{1024}, .write_bytes = 0};
  s.pids = {.current = 3, .max = 100};
  // Some task waits on the CPU whenever the group is throttled; io.pressure is not read (v1).
  s.cpu_pressure = {.some_us = counters.throttled_us, .full_us = counters.throttled_us};
  s.memory_pressure = {.some_us = 0, .full_us = 0};
  return s;
}

CgroupStats unlimited_stats(int64_t usage_us, int64_t memory_bytes, int64_t limit_bytes) {
  CgroupStats s;
  s.cpu.usage_us = usage_us;
  s.cpu.periods = 0;
  s.cpu.throttled_periods = 0;
  s.cpu.throttled_us = 0;
  s.bandwidth = {.quota_us = kUnlimited, .period_us = kCfsPeriodNs / 1000};
  s.memory.usage_bytes = memory_bytes;
  s.memory.limit_bytes = limit_bytes;
  s.memory.high_bytes = kUnlimited;
  s.memory.events = {.low = 0, .high = 0, .max = 0, .oom = 0, .oom_kill = 0};
  s.pids = {.current = 1, .max = kUnlimited};
  return s;
}

ContainerRow row(std::string path, std::string id, container::Runtime runtime, uint64_t cgroup_id,
                 CgroupStats stats) {
  ContainerRow r;
  r.path = std::move(path);
  r.id = std::move(id);
  r.runtime = runtime;
  r.cgroup_id = cgroup_id;
  r.stats = stats;
  r.read_ok = true;
  return r;
}

int64_t monotonic(int64_t t) { return kStartNs + t - kMonotonicBehindNs; }

// The episodes of the checkout container that ended in frame k's span ((k-1) * 500 ms, k * 500 ms]:
// each throttled period's, from 20 ms into it (the quota spent) to its refill, 50 µs late.
std::vector<ThrottleEpisode> episodes_of_frame(int k) {
  std::vector<ThrottleEpisode> out;
  for (int64_t p = kFirstThrottledPeriod; p < 40; ++p) {
    const int64_t refill = (p + 1) * kCfsPeriodNs;
    const int64_t end = refill + 50'000;
    if (end <= (k - 1) * kContainerFrameNs || end > k * kContainerFrameNs) continue;
    out.push_back({.cgroup_id = kCheckoutCgroupId,
                   .start_ns = monotonic(p * kCfsPeriodNs + kQuotaUs * 1000),
                   .end_ns = monotonic(end),
                   .period_ns = kCfsPeriodNs,
                   .quota_ns = kQuotaUs * 1000,
                   .period_end_ns = monotonic(refill),
                   .cpus = 1,
                   .spans = 1,
                   .throttled_ns = kThrottledPerPeriodUs * 1000,
                   .refills = 1,
                   .end_exact = true});
  }
  return out;
}

ContainerFrame container_frame(int k, bool episodes) {
  const int64_t t = k * kContainerFrameNs;
  ContainerFrame frame;
  frame.time_unix_ns = kStartNs + t;
  frame.mono_ns = monotonic(t);
  frame.mode = container::CgroupMode::hybrid;
  auto checkout = row(checkout_path(), checkout_id(), container::Runtime::containerd,
                      kCheckoutCgroupId, checkout_stats(k));
  checkout.qos = container::QosClass::burstable;
  checkout.pod_namespace = "prod";
  checkout.pod = "checkout-7f9c";
  checkout.pod_uid = "0d5a3c1e-1111-2222-3333-444455556666";
  checkout.container = "app";
  checkout.image = "registry.example/checkout:1.2";
  checkout.fast = k >= 1;
  auto web =
      row("/system.slice/docker-" + web_id() + ".scope", web_id(), container::Runtime::docker, 1002,
          unlimited_stats(t / 25'000, 20 * kMiB, kUnlimited));
  web.name = "web";
  web.image = "nginx:1.25";
  frame.containers = {checkout, web};
  if (k >= 2 && k <= 4) {
    auto job = row(job_path(), job_id(), container::Runtime::docker, 1003,
                   unlimited_stats((t - 1'000'000'000) / 2000, 50 * kMiB, 512 * kMiB));
    job.name = "batch-job";
    frame.containers.push_back(job);
  }
  std::sort(frame.containers.begin(), frame.containers.end(),
            [](const ContainerRow& a, const ContainerRow& b) { return a.path < b.path; });
  const auto checkout_row = static_cast<uint32_t>(
      std::find_if(frame.containers.begin(), frame.containers.end(),
                   [](const ContainerRow& r) { return r.path == checkout_path(); }) -
      frame.containers.begin());
  if (k >= 1) {
    // The fast tier's reads between the frame before and this one.
    for (int64_t read = t - kContainerFrameNs + kFastReadNs; read < t; read += kFastReadNs) {
      const auto counters = checkout_at(read);
      frame.fast_reads.push_back({.time_unix_ns = kStartNs + read,
                                  .row = checkout_row,
                                  .usage_us = counters.usage_us,
                                  .periods = counters.periods,
                                  .throttled_periods = counters.throttled_periods,
                                  .throttled_us = counters.throttled_us,
                                  .memory_usage_bytes = (180 + 10 * int64_t{k}) * kMiB});
    }
  }
  frame.episodes_recorded = episodes;
  if (episodes) frame.episodes = episodes_of_frame(k);
  return frame;
}

}  // namespace

std::string checkout_id() { return std::string(64, 'a'); }
std::string web_id() { return std::string(64, 'b'); }
std::string job_id() { return std::string(64, 'c'); }
std::string checkout_path() {
  return "/kubepods.slice/kubepods-burstable.slice/"
         "kubepods-burstable-pod0d5a3c1e_1111_2222_3333_444455556666.slice/cri-containerd-" +
         checkout_id() + ".scope";
}
std::string job_path() { return "/system.slice/docker-" + job_id() + ".scope"; }

ReplayData container_fixture(bool episodes) {
  ReplayData data = fixture();
  for (auto& frame : data.process_frames) {
    for (auto& process : frame.processes) {
      if (process.pid == 202) {
        process.container_id = checkout_id();
        process.cgroup = checkout_path();
      } else if (process.pid == 300) {
        process.container_id = web_id();
        process.cgroup = "/system.slice/docker-" + web_id() + ".scope";
      } else if (process.pid == 203) {
        process.container_id = job_id();
        process.cgroup = job_path();
      }
    }
  }
  for (int k = 0; k < kContainerFrames; ++k) {
    data.container_frames.push_back(container_frame(k, episodes));
  }
  return data;
}

}  // namespace flightrec::replay::testing
