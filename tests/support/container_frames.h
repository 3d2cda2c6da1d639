#pragma once
// Container frames for tests of the codec, the ring, recordings and /dump: a container that is
// there from the first frame on, one that appears in the second and is gone by the fourth, with
// fast reads and an episode, so every part of a frame is filled and the set of rows changes.
#include <cstdint>
#include <string>
#include <vector>

#include "flightrec/container/frame/container_frame.h"

namespace flightrec::test {

inline container::ContainerRow sample_container_row(const std::string& id, uint64_t cgroup_id,
                                                    int64_t step) {
  container::ContainerRow row;
  row.path = "/kubepods/burstable/pod1234/" + id;
  row.id = id;
  row.runtime = container::Runtime::cri;
  row.qos = container::QosClass::burstable;
  row.cgroup_id = cgroup_id;
  row.pod_namespace = "prod";
  row.pod = "checkout-7f9c";
  row.pod_uid = "1234";
  row.container = "app";
  row.name = "k8s_app_checkout-7f9c_prod_1234_0";
  row.image = "nginx:1.25";
  row.read_ok = true;
  row.fast = step % 2 == 0;
  row.stats.cpu.usage_us = 1'000'000 * step;
  row.stats.cpu.periods = 10 * step;
  row.stats.cpu.throttled_periods = 4 * step;
  row.stats.cpu.throttled_us = 300'000 * step;
  row.stats.bandwidth = {.quota_us = 20'000, .period_us = 100'000};
  row.stats.memory.usage_bytes = 50 << 20;
  row.stats.memory.limit_bytes = container::kUnlimited;
  row.stats.memory.events.oom_kill = 0;
  row.stats.io.count = 1;
  row.stats.io.devices[0] = {.major = 8, .minor = 0, .read_bytes = 4096, .write_bytes = 0};
  row.stats.pids = {.current = 3, .max = container::kUnlimited};
  row.cpu_cores = 0.2;
  row.throttled_periods_ratio = 0.4;
  if (step > 1) row.throttled_share = 0.8;
  return row;
}

// Frames 100 ms apart from `start_unix_ns`: "aaa…" in every frame, "bbb…" in frames 1 and 2
// only.
inline std::vector<container::ContainerFrame> sample_container_frames(int64_t start_unix_ns,
                                                                      size_t count = 4) {
  const std::string a(64, 'a');
  const std::string b(64, 'b');
  std::vector<container::ContainerFrame> frames;
  for (size_t i = 0; i < count; ++i) {
    container::ContainerFrame frame;
    frame.time_unix_ns = start_unix_ns + static_cast<int64_t>(i) * 100'000'000;
    frame.mono_ns = 5'000'000'000 + static_cast<int64_t>(i) * 100'000'000;
    frame.mode = container::CgroupMode::hybrid;
    frame.containers.push_back(sample_container_row(a, 1001, static_cast<int64_t>(i)));
    if (i == 1 || i == 2) {
      frame.containers.push_back(sample_container_row(b, 1002, static_cast<int64_t>(i)));
    }
    frame.fast_reads.push_back({.time_unix_ns = frame.time_unix_ns - 50'000'000,
                                .row = 0,
                                .usage_us = 123,
                                .periods = 7,
                                .throttled_periods = 3,
                                .throttled_us = 90'000,
                                .memory_usage_bytes = 1 << 20});
    frame.episodes_recorded = true;
    container::ThrottleEpisode episode;
    episode.cgroup_id = 1001;
    episode.start_ns = frame.mono_ns - 80'000'000;
    episode.end_ns = frame.mono_ns - 20'000'000;
    episode.period_ns = 100'000'000;
    episode.quota_ns = 20'000'000;
    episode.period_end_ns = episode.end_ns;
    episode.cpus = 1;
    episode.spans = 1;
    episode.throttled_ns = 60'000'000;
    episode.refills = 1;
    episode.end_exact = true;
    frame.episodes.push_back(episode);
    frames.push_back(std::move(frame));
  }
  return frames;
}

}  // namespace flightrec::test
