#pragma once
// "cgroup_cpu": the root cgroup v2 cpu.stat — CPU time of the whole machine as cgroup v2 accounts
// it, in microseconds: usage_usec, user_usec, system_usec.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "flightrec/sampler/proc_root.h"
#include "flightrec/sampler/source.h"

namespace flightrec::sampler {

// The fields kept, in the order of the values parse_cgroup_cpu writes.
inline constexpr std::array<std::string_view, 3> kCgroupCpuFields{"usage_usec", "user_usec",
                                                                  "system_usec"};

// The series of those fields (names without the flightrec_ prefix), same order.
namespace series_names {
inline constexpr std::string_view kCgroupCpuUsageSecondsTotal = "cgroup_cpu_usage_seconds_total";
inline constexpr std::string_view kCgroupCpuUserSecondsTotal = "cgroup_cpu_user_seconds_total";
inline constexpr std::string_view kCgroupCpuSystemSecondsTotal = "cgroup_cpu_system_seconds_total";
}  // namespace series_names

// Fills `out` from cpu.stat bytes; a missing or malformed field stays kAbsent (partial).
SampleStatus parse_cgroup_cpu(std::string_view text,
                              std::span<int64_t, kCgroupCpuFields.size()> out) noexcept;

// Writes the three values from tick `tick` of a kernel tick batch (kernel_ticks.h) as the kernel
// derives the root cgroup's cpu.stat from the per-CPU times (summed over every CPU, in
// microseconds rounded down): usage = user + nice + system + irq + softirq, user = user + nice,
// system = system + irq + softirq. Steal and idle are in none of them.
void take_cgroup_cpu_kernel_tick(const KernelTickBatch& batch, size_t tick,
                                 std::span<int64_t, kCgroupCpuFields.size()> out) noexcept;

// Reads <cgroupfs>/cpu.stat, or <cgroupfs>/unified/cpu.stat on hybrid hosts. Throws
// SourceUnavailable when neither exists (no cgroup v2), std::runtime_error naming the file when
// it exists but cannot be read.
std::unique_ptr<Source> make_cgroup_cpu_source(const ProcRoot& root);

}  // namespace flightrec::sampler
