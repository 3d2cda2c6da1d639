#pragma once
// replay_fixture.h's recording with container frames every 500 ms (0 .. 3 s) and the processes
// placed in them:
// - "prod/checkout-7f9c/app" (containerd, pod of namespace prod): a quota of 20 ms per 100 ms
//   period; it uses 10 ms of each period until 1 s, then its burner (pid 202) the whole quota, and
//   is throttled for the rest of every period from then on (80 ms: '8' in the strip). Its memory
//   fills towards its 256 MiB limit; memory.events high and max grow. It is in the fast tier
//   (cpu.stat every 10 ms) and the kernel's episodes are recorded.
// - "web" (Docker, nginx, pid 300): no quota, no limit, 4 % of a core.
// - "batch-job" (Docker, make, pid 203): a container that comes and goes, in the frames of 1 s to
//   2 s only, half a core.
// The tests derive their expectations from the constants below.
#include <cstdint>
#include <string>

#include "flightrec/replay/replay_data.h"

namespace flightrec::replay::testing {

inline constexpr int64_t kContainerFrameNs = 500'000'000;
inline constexpr int kContainerFrames = 7;  // 0 .. 3 s
inline constexpr int64_t kCfsPeriodNs = 100'000'000;
inline constexpr int64_t kQuotaUs = 20'000;
inline constexpr int64_t kThrottledPerPeriodUs = 80'000;
inline constexpr int kFirstThrottledPeriod = 10;  // from 1 s on
inline constexpr int64_t kFastReadNs = 10'000'000;
// CLOCK_MONOTONIC is this much behind CLOCK_REALTIME in the fixture.
inline constexpr int64_t kMonotonicBehindNs = 1'764'000'000'000'000'000;
inline constexpr uint64_t kCheckoutCgroupId = 1001;

std::string checkout_id();  // 64 hex
std::string web_id();
std::string job_id();
std::string checkout_path();  // its cgroup path (the row's key)
std::string job_path();

// With episodes: episodes recorded; without: neither recorded nor present (the strip then comes
// from the cpu.stat reads).
ReplayData container_fixture(bool episodes = true);

}  // namespace flightrec::replay::testing
