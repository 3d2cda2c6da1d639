#include "flightrec/container/cgroups/container_reader.h"

#include <unistd.h>

#include <cerrno>
#include <string_view>
#include <system_error>
#include <utility>

#include "flightrec/container/cgroups/cpu_files.h"
#include "flightrec/container/cgroups/io_files.h"
#include "flightrec/container/cgroups/memory_files.h"
#include "flightrec/container/cgroups/pressure_file.h"
#include "flightrec/container/cgroups/value_files.h"
#include "flightrec/sampler/sources/parsing.h"

namespace flightrec::container {
namespace {

constexpr int64_t kMicrosecondsPerSecond = 1'000'000;
constexpr int64_t kNanosecondsPerMicrosecond = 1000;

// First read's buffer: the multi-line files need more than a number does, and FileReader grows
// the buffer itself for one that outgrows it.
size_t initial_capacity(CgroupFile file) {
  switch (file) {
    case CgroupFile::memory_stat:
      return 2048;
    case CgroupFile::io_stat:
    case CgroupFile::blkio_bytes:
    case CgroupFile::blkio_ios:
    case CgroupFile::cpu_stat:
    case CgroupFile::cpu_pressure:
    case CgroupFile::memory_pressure:
    case CgroupFile::io_pressure:
      return 512;
    default:
      return 64;
  }
}

template <typename T>
Status assign(Result<T> parsed, T& field) {
  if (!parsed) return Error{std::move(parsed).error()};
  field = std::move(*parsed);
  return {};
}

// cpu.stat fills what it has: on v1 the usage comes from cpuacct and must not be cleared.
void merge(CpuStat& into, const CpuStat& from) {
  for (auto member : {&CpuStat::usage_us, &CpuStat::user_us, &CpuStat::system_us, &CpuStat::periods,
                      &CpuStat::throttled_periods, &CpuStat::throttled_us, &CpuStat::bursts,
                      &CpuStat::burst_us}) {
    if (from.*member != kAbsent) into.*member = from.*member;
  }
}

}  // namespace

ContainerReader::ContainerReader(std::string path, CgroupMode mode, int64_t us_per_tick)
    : path_(std::move(path)), mode_(mode), us_per_tick_(us_per_tick) {}

Result<ContainerReader> ContainerReader::open(const ContainerRef& ref, CgroupMode mode) {
  const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
  ContainerReader reader(ref.path, mode,
                         ticks_per_second > 0 ? kMicrosecondsPerSecond / ticks_per_second : 0);
  std::string first_failure;
  size_t opened = 0;
  for (size_t i = 0; i < kCgroupFileCount; ++i) {
    const auto file = static_cast<CgroupFile>(i);
    const std::string_view name = cgroup_file_name(file, mode);
    const std::optional<Controller> controller = cgroup_file_controller(file);
    const std::filesystem::path& dir = controller ? ref.dir(*controller) : ref.pressure_dir;
    if (name.empty() || dir.empty()) continue;
    try {
      reader.files_[i].emplace(dir / name, initial_capacity(file), sampler::FileEnd::at_short_read);
      ++opened;
    } catch (const std::system_error& e) {
      // Absent files are normal (an older kernel, a controller not enabled for this cgroup).
      if (first_failure.empty() && e.code() != std::errc::no_such_file_or_directory) {
        first_failure = e.what();
      }
    }
  }
  if (opened == 0) {
    return Error{"no cgroup file of " + ref.path + " could be opened" +
                 (first_failure.empty() ? std::string() : ": " + first_failure)};
  }
  return reader;
}

Status ContainerReader::read(CgroupStats& out) {
  out = CgroupStats{};
  Status first_error;
  for (size_t i = 0; i < kCgroupFileCount; ++i) {
    const auto file = static_cast<CgroupFile>(i);
    if (file != CgroupFile::blkio_ios) read_file(file, out, first_error);  // read with its pair
  }
  return first_error;
}

Status ContainerReader::read_counters(CgroupStats& out, bool memory_events) {
  Status first_error;
  for (size_t i = 0; i < kCgroupFileCount; ++i) {
    const auto file = static_cast<CgroupFile>(i);
    if (!is_counter_file(file) || (file == CgroupFile::memory_events && !memory_events)) continue;
    read_file(file, out, first_error);
  }
  return first_error;
}

std::optional<std::filesystem::path> ContainerReader::file_path(CgroupFile file) const {
  const std::optional<sampler::FileReader>& reader = files_[index(file)];
  if (!reader) return std::nullopt;
  return reader->path();
}

Status ContainerReader::read_details(CgroupStats& out) {
  Status first_error;
  for (size_t i = 0; i < kCgroupFileCount; ++i) {
    const auto file = static_cast<CgroupFile>(i);
    if (!is_counter_file(file) && file != CgroupFile::blkio_ios) read_file(file, out, first_error);
  }
  return first_error;
}

Status ContainerReader::read_fast(CgroupStats& out, bool memory_usage) {
  Status first_error;
  read_file(CgroupFile::cpu_stat, out, first_error);
  read_file(CgroupFile::cpuacct_usage, out, first_error);
  if (memory_usage) read_file(CgroupFile::memory_usage, out, first_error);
  return first_error;
}

void ContainerReader::read_file(CgroupFile file, CgroupStats& out, Status& first_error) {
  std::optional<sampler::FileReader>& reader = files_[index(file)];
  if (!reader) return;
  std::string_view bytes;
  Status status;
  if (!reader->read(bytes)) {
    status = Error{"cannot read " + reader->path().string() + ": " +
                   std::generic_category().message(reader->errno_value())};
  } else if (Status taken = take(file, bytes, out); !taken) {
    status = Error{reader->path().string() + ": " + std::move(taken).error()};
  }
  if (!status && first_error) first_error = std::move(status);
}

Status ContainerReader::take(CgroupFile file, std::string_view bytes, CgroupStats& out) {
  switch (file) {
    case CgroupFile::cpu_stat: {
      Result<CpuStat> stat = parse_cpu_stat(bytes);
      if (!stat) return Error{std::move(stat).error()};
      merge(out.cpu, *stat);
      return {};
    }
    case CgroupFile::cpu_max:
      return assign(parse_cpu_max(bytes), out.bandwidth);
    case CgroupFile::cfs_quota:
      return assign(parse_cfs_quota(bytes), out.bandwidth.quota_us);
    case CgroupFile::cfs_period:
      return assign(parse_cgroup_count(bytes), out.bandwidth.period_us);
    case CgroupFile::cpuacct_usage: {
      Result<int64_t> ns = parse_cgroup_count(bytes);
      if (!ns) return Error{std::move(ns).error()};
      out.cpu.usage_us = *ns / kNanosecondsPerMicrosecond;
      return {};
    }
    case CgroupFile::cpuacct_stat: {
      Result<CpuacctTicks> ticks = parse_cpuacct_stat(bytes);
      if (!ticks) return Error{std::move(ticks).error()};
      if (us_per_tick_ > 0) {
        out.cpu.user_us = sampler::parsing::scaled_or_absent(ticks->user, us_per_tick_);
        out.cpu.system_us = sampler::parsing::scaled_or_absent(ticks->system, us_per_tick_);
      }
      return {};
    }
    case CgroupFile::memory_usage:
      return assign(parse_cgroup_count(bytes), out.memory.usage_bytes);
    case CgroupFile::memory_limit:
      return assign(parse_cgroup_limit(bytes), out.memory.limit_bytes);
    case CgroupFile::memory_high:
      return assign(parse_cgroup_limit(bytes), out.memory.high_bytes);
    case CgroupFile::memory_swap:
      return assign(parse_cgroup_count(bytes), out.memory.swap_bytes);
    case CgroupFile::memory_events:
      return assign(parse_memory_events(bytes), out.memory.events);
    case CgroupFile::memory_failcnt:
      return assign(parse_cgroup_count(bytes), out.memory.events.max);
    case CgroupFile::memory_oom_control: {
      Result<OomControl> control = parse_oom_control(bytes);
      if (!control) return Error{std::move(control).error()};
      out.memory.events.oom_kill = control->oom_kill;
      return {};
    }
    case CgroupFile::memory_stat: {
      Result<MemoryStat> stat =
          mode_ == CgroupMode::unified ? parse_memory_stat_v2(bytes) : parse_memory_stat_v1(bytes);
      if (!stat) return Error{std::move(stat).error()};
      out.memory.stat = *stat;
      if (mode_ == CgroupMode::hybrid) out.memory.swap_bytes = stat->swap;
      return {};
    }
    case CgroupFile::io_stat:
      return assign(parse_io_stat(bytes), out.io);
    case CgroupFile::blkio_bytes: {
      std::string_view serviced;
      std::optional<sampler::FileReader>& ios = files_[index(CgroupFile::blkio_ios)];
      if (ios && !ios->read(serviced)) {
        return Error{"cannot read " + ios->path().string() + ": " +
                     std::generic_category().message(ios->errno_value())};
      }
      return assign(parse_blkio_throttle(bytes, serviced), out.io);
    }
    case CgroupFile::blkio_ios:
      return {};
    case CgroupFile::pids_current:
      return assign(parse_cgroup_count(bytes), out.pids.current);
    case CgroupFile::pids_max:
      return assign(parse_cgroup_limit(bytes), out.pids.max);
    case CgroupFile::cpu_pressure:
      return assign(parse_cgroup_pressure(bytes), out.cpu_pressure);
    case CgroupFile::memory_pressure:
      return assign(parse_cgroup_pressure(bytes), out.memory_pressure);
    case CgroupFile::io_pressure:
      return assign(parse_cgroup_pressure(bytes), out.io_pressure);
  }
  return {};
}

}  // namespace flightrec::container
