#include "flightrec/sampler/sources/cgroup_cpu.h"

#include <filesystem>
#include <string>
#include <utility>

#include "file_source.h"
#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/parsing.h"
#include "series_builder.h"

namespace flightrec::sampler {
namespace {

constexpr double kSecondsPerMicrosecond = 1e-6;

// Same order as kCgroupCpuFields.
constexpr std::array<detail::SeriesInfo, kCgroupCpuFields.size()> kSeries{{
    {series_names::kCgroupCpuUsageSecondsTotal, SeriesKind::counter, "seconds",
     kSecondsPerMicrosecond,
     "CPU time used by all tasks, from the root cgroup's cpu.stat (usage_usec)."},
    {series_names::kCgroupCpuUserSecondsTotal, SeriesKind::counter, "seconds",
     kSecondsPerMicrosecond, "CPU time in user mode, from the root cgroup's cpu.stat (user_usec)."},
    {series_names::kCgroupCpuSystemSecondsTotal, SeriesKind::counter, "seconds",
     kSecondsPerMicrosecond,
     "CPU time in kernel mode, from the root cgroup's cpu.stat (system_usec)."},
}};

}  // namespace

SampleStatus parse_cgroup_cpu(std::string_view text,
                              std::span<int64_t, kCgroupCpuFields.size()> out) noexcept {
  parsing::fill_absent(out);
  std::string_view line;
  while (parsing::next_line(text, line)) {
    const std::string_view key = parsing::next_token(line);
    for (size_t i = 0; i < kCgroupCpuFields.size(); ++i) {
      if (key == kCgroupCpuFields[i]) {
        parsing::read_count(line, out[i]);  // leaves kAbsent when malformed
        break;
      }
    }
  }
  return parsing::status_of(out);
}

std::unique_ptr<Source> make_cgroup_cpu_source(const ProcRoot& root) {
  // Pure v2 hosts mount the hierarchy at the root; hybrid (v1 + v2) hosts under "unified".
  for (const std::string_view relative : {"cpu.stat", "unified/cpu.stat"}) {
    const std::filesystem::path path = root.cgroupfs / relative;
    if (std::filesystem::exists(path)) {
      return std::make_unique<detail::FileSource<kCgroupCpuFields.size(), parse_cgroup_cpu>>(
          "cgroup_cpu", "/sys/fs/cgroup/" + std::string(relative), kSeries, FileReader(path));
    }
  }
  throw SourceUnavailable("no cgroup v2 cpu.stat under " + root.cgroupfs.string() +
                          " (nor its unified/)");
}

}  // namespace flightrec::sampler
