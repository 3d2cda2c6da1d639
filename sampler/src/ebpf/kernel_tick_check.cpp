#include "kernel_tick_check.h"

#include <array>
#include <cstdio>
#include <vector>

#include "flightrec/sampler/sources/stat.h"

namespace flightrec::sampler::detail {
namespace {

// /proc/stat's columns by their own names (the series names call the guest columns user and nice).
constexpr std::array<const char*, sampler::kStatCpuModes> kColumnNames{
    "user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal", "guest", "guest_nice"};

// Both in ns. Seconds with millisecond digits: what a reader of the refusal compares.
std::string describe_column(uint32_t cpu, size_t mode, int64_t from_stat, int64_t from_tick,
                            int64_t elapsed_ns) {
  char text[200];
  std::snprintf(text, sizeof text,
                "CPU %u %s: the file says %.3f s, the kernel tick %.3f s (read %.3f ms later)", cpu,
                kColumnNames[mode], static_cast<double>(from_stat) / 1e9,
                static_cast<double>(from_tick) / 1e9, static_cast<double>(elapsed_ns) / 1e6);
  return text;
}

}  // namespace

Status check_against_proc_stat(std::string_view stat_text,
                               std::span<const sampler::KernelCpuTimes> cpus, int64_t elapsed_ns,
                               int64_t ns_per_user_hz) {
  const sampler::StatLayout layout = sampler::parse_stat_layout(stat_text);
  if (layout.cpu_ids.empty()) return Error{"/proc/stat has no per-CPU lines"};
  std::vector<int64_t> values(sampler::stat_value_count(layout));
  if (sampler::parse_stat(stat_text, layout, values) != sampler::SampleStatus::ok) {
    return Error{"/proc/stat could not be parsed"};
  }
  const int64_t slack = 2 * ns_per_user_hz;
  for (size_t line = 0; line < layout.cpu_ids.size(); ++line) {
    const uint32_t cpu = layout.cpu_ids[line];
    if (cpu >= cpus.size()) {
      return Error{"/proc/stat has CPU " + std::to_string(cpu) + ", which is not a possible CPU"};
    }
    if (cpus[cpu].online == 0) {
      return Error{"/proc/stat lists CPU " + std::to_string(cpu) +
                   ", which the kernel tick has offline"};
    }
    for (size_t mode = 0; mode < sampler::kStatCpuModes; ++mode) {
      const int64_t from_stat = values[(line + 1) * sampler::kStatCpuModes + mode] * ns_per_user_hz;
      const auto from_tick = static_cast<int64_t>(cpus[cpu].ns[mode]);
      const int64_t ahead = from_stat - from_tick;
      if (ahead < -slack || ahead > elapsed_ns + slack) {
        return Error{describe_column(cpu, mode, from_stat, from_tick, elapsed_ns)};
      }
    }
  }
  return {};
}

}  // namespace flightrec::sampler::detail
