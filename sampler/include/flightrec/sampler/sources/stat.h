#pragma once
// "stat": /proc/stat — CPU time per CPU and in total for every mode, in USER_HZ ticks, plus the
// context switch, interrupt and fork counters and the running/blocked task gauges.
//
// Values, in this order (see stat_value_count):
//   [aggregate "cpu" line: kStatCpuModes values]
//   [one run of kStatCpuModes per CPU present at open, in StatLayout::cpu_ids order]
//   ctxt, intr (the total, first number), processes, procs_running, procs_blocked
// A CPU run holds the kernel's columns in order: user nice system idle iowait irq softirq steal
// guest guest_nice.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "flightrec/sampler/proc_root.h"
#include "flightrec/sampler/source.h"

namespace flightrec::sampler {

inline constexpr size_t kStatCpuModes = 10;
inline constexpr size_t kStatScalars = 5;

// The series of the CPU runs (names without the flightrec_ prefix) and their labels: "cpu" (the
// CPU's id; absent on the aggregate line) and "mode" (the kernel's column). The guest columns go
// to a family of their own, being already counted in user and nice.
namespace series_names {
inline constexpr std::string_view kCpuSecondsTotal = "cpu_seconds_total";
inline constexpr std::string_view kCpuGuestSecondsTotal = "cpu_guest_seconds_total";
inline constexpr std::string_view kCpuAggregateSecondsTotal = "cpu_aggregate_seconds_total";
inline constexpr std::string_view kCpuAggregateGuestSecondsTotal =
    "cpu_aggregate_guest_seconds_total";
}  // namespace series_names
inline constexpr std::string_view kCpuLabel = "cpu";
inline constexpr std::string_view kCpuModeLabel = "mode";
// The mode label of each column, in the kernel's order.
inline constexpr std::array<std::string_view, kStatCpuModes> kStatCpuModeNames{
    "user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal", "user", "nice"};
inline constexpr size_t kStatFirstGuestMode = 8;
// The modes that are not busy time: a CPU is busy in every other non-guest mode.
inline constexpr std::array<std::string_view, 2> kStatIdleModes{"idle", "iowait"};

// The CPUs a /proc/stat had when the source opened; fixed for the source's life.
struct StatLayout {
  std::vector<uint32_t> cpu_ids;         // "cpuN" lines in file order
  std::vector<int32_t> index_by_cpu_id;  // cpu id -> position in cpu_ids, -1 for none
};

// Ids above this are ignored (the kernel's own NR_CPUS ceiling), so garbage cannot make the
// layout huge.
inline constexpr uint32_t kStatMaxCpuId = 8191;

// Reads which "cpuN" lines `text` has. Set-up only (allocates).
StatLayout parse_stat_layout(std::string_view text);

[[nodiscard]] inline size_t stat_value_count(const StatLayout& layout) noexcept {
  return (layout.cpu_ids.size() + 1) * kStatCpuModes + kStatScalars;
}

// Fills `out` (stat_value_count(layout) values) from /proc/stat bytes. A CPU line that is missing
// or cut short leaves kAbsent (partial); CPUs not in the layout are ignored. failed when `out`
// has the wrong size or nothing was recognised. Never allocates.
SampleStatus parse_stat(std::string_view text, const StatLayout& layout,
                        std::span<int64_t> out) noexcept;

// Writes into `out` (stat_value_count(layout) values) what tick `tick` of a kernel tick batch
// (kernel_ticks.h) gives: every CPU run of the layout (kAbsent for a CPU the tick has offline),
// the aggregate as /proc/stat sums it (over every CPU, offline ones included, in nanoseconds,
// then converted), ctxt, procs_running and procs_blocked. Times become whole USER_HZ ticks of
// `ns_per_tick` nanoseconds, rounded down as /proc/stat rounds them; intr and processes, which
// the tick does not give, are left as they are.
void take_stat_kernel_tick(const KernelTickBatch& batch, size_t tick, const StatLayout& layout,
                           uint64_t ns_per_tick, std::span<int64_t> out) noexcept;

// Throws std::runtime_error naming the file when it cannot be read or has no "cpu" line.
std::unique_ptr<Source> make_stat_source(const ProcRoot& root);

}  // namespace flightrec::sampler
