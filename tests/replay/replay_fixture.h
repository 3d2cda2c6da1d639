#pragma once
// A small recording with known values, built in memory: 3 s of system frames every 10 ms and a
// process frame every 250 ms of a memory leak (pid 201), a CPU burner from 1 s on (pid 202), a web
// server with traffic (pid 300), a process that lives from 1.25 s to 1.75 s (pid 203), and an
// incident trigger at 2 s. The tests derive their expectations from the constants below.
#include <cstdint>
#include <string>

#include "flightrec/replay/replay_data.h"
#include "flightrec/replay/table.h"

namespace flightrec::replay::testing {

inline constexpr int64_t kStartNs = 1'764'478'800'000'000'000;  // 2025-11-30T05:00:00Z
inline constexpr int64_t kRateNs = 10'000'000;
inline constexpr int kFrames = 301;  // 0 .. 3 s
inline constexpr int64_t kProcessPeriodNs = 250'000'000;
inline constexpr int kProcessFrames = 13;  // 0 .. 3 s
inline constexpr int64_t kTriggerNs = kStartNs + 2'000'000'000;
inline constexpr int64_t kMiB = 1 << 20;
inline constexpr int64_t kMemTotal = 4096 * kMiB;
inline constexpr int64_t kDiskReadPerFrame = 40960;
inline constexpr int64_t kNetRxPerFrame = 1000;  // eth0; lo moves far more and is not counted
inline constexpr int kSwapAbsentFrame = 150;

// System frame i's leak: 100 MiB + 8 MiB per frame (process frame k: 100 + 200 k MiB).
inline int64_t leak_rss(int frame) { return (100 + 8 * int64_t{frame}) * kMiB; }

ReplayData fixture();

// The same recording as an OOM incident (tests/replay/data/oom.fltrec): rule oom_kill fired at
// kTriggerNs, the kernel's kill of the leak (pid 201) at kOomKillNs, and the memory details the
// OOM victim namer adds.
inline constexpr int64_t kOomKillNs = kStartNs + 1'900'000'000;
ReplayData oom_fixture();
UserNames fixture_users();  // 0 root, 33 www-data, 1000 alice

}  // namespace flightrec::replay::testing
