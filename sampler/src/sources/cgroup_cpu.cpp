#include "flightrec/sampler/sources/cgroup_cpu.h"

#include <algorithm>
#include <climits>
#include <filesystem>
#include <string>
#include <utility>

#include "file_source.h"
#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/kernel_ticks.h"
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

using CgroupCpuFile = detail::FileSource<kCgroupCpuFields.size(), parse_cgroup_cpu>;

// The file source, which a kernel tick can stand in for whole.
class CgroupCpuSource final : public Source {
 public:
  explicit CgroupCpuSource(std::unique_ptr<CgroupCpuFile> file) : file_(std::move(file)) {}

  [[nodiscard]] std::string_view name() const noexcept override { return file_->name(); }
  void describe(Schema& out) const override { file_->describe(out); }
  SampleStatus sample(std::span<int64_t> out) noexcept override { return file_->sample(out); }

  [[nodiscard]] KernelTickShare kernel_tick_share() const noexcept override {
    return KernelTickShare::all;
  }
  void take_kernel_tick(const KernelTickBatch& batch, size_t tick,
                        std::span<int64_t> out) noexcept override {
    if (out.size() == kCgroupCpuFields.size()) {
      take_cgroup_cpu_kernel_tick(batch, tick, out.first<kCgroupCpuFields.size()>());
    }
  }

 private:
  std::unique_ptr<CgroupCpuFile> file_;
};

// Nanoseconds to cpu.stat's microseconds, as the kernel divides them.
int64_t microseconds(uint64_t ns) noexcept {
  return static_cast<int64_t>(std::min<uint64_t>(ns / 1000, INT64_MAX));
}

}  // namespace

void take_cgroup_cpu_kernel_tick(const KernelTickBatch& batch, size_t tick,
                                 std::span<int64_t, kCgroupCpuFields.size()> out) noexcept {
  // /proc/stat's column order (kStatCpuModeNames).
  constexpr size_t kUser = 0, kNice = 1, kSystem = 2, kIrq = 5, kSoftirq = 6;
  uint64_t user = 0;
  uint64_t system = 0;
  for (const KernelCpuTimes& cpu : batch.cpus_of(tick)) {
    user += cpu.ns[kUser] + cpu.ns[kNice];
    system += cpu.ns[kSystem] + cpu.ns[kIrq] + cpu.ns[kSoftirq];
  }
  out[0] = microseconds(user + system);
  out[1] = microseconds(user);
  out[2] = microseconds(system);
}

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
      return std::make_unique<CgroupCpuSource>(
          std::make_unique<CgroupCpuFile>("cgroup_cpu", "/sys/fs/cgroup/" + std::string(relative),
                                          kSeries, FileReader(path, 4096, FileEnd::at_short_read)));
    }
  }
  throw SourceUnavailable("no cgroup v2 cpu.stat under " + root.cgroupfs.string() +
                          " (nor its unified/)");
}

}  // namespace flightrec::sampler
