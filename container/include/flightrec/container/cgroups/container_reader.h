#pragma once
// Reads one container's CgroupStats. Every file is opened once and kept open (sampler's
// FileReader; a cgroup file is rendered whole at its first read, so FileEnd::at_short_read), so a
// read is one pread per file and no open or path walk; files are parsed by the
// pure parsers of cpu_files.h, memory_files.h, io_files.h, value_files.h and pressure_file.h.
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "flightrec/common/result.h"
#include "flightrec/container/cgroups/cgroup_file.h"
#include "flightrec/container/cgroups/cgroup_stats.h"
#include "flightrec/container/cgroups/container_ref.h"
#include "flightrec/sampler/file_reader.h"

namespace flightrec::container {

class ContainerReader {
 public:
  // Opens each file of the container that its cgroup has: a file this kernel lacks, or whose
  // controller is not enabled for the cgroup, is left out and its fields stay kAbsent. An error,
  // naming the path and the first failure, when not one file opens (the cgroup went away).
  static Result<ContainerReader> open(const ContainerRef& ref, CgroupMode mode);

  // Fills `out` from every open file; fields without a file are kAbsent. On v1 the CPU times are
  // converted to µs (cpuacct.usage from ns, cpuacct.stat from USER_HZ), memory.failcnt is
  // events.max and memory.oom_control's oom_kill is events.oom_kill. Every file is read even
  // after one fails; the error names the first that could not be read or parsed (ENODEV once the
  // cgroup is removed), and the fields it feeds stay kAbsent.
  Status read(CgroupStats& out);

  // The files the slow round reads every round (cgroup_file.h's is_counter_file): the CPU
  // counters, the memory usage and the limit-breach counters (memory.events, or v1's
  // memory.failcnt and memory.oom_control), into `out`; memory.events only when
  // `memory_events` (v2's is left to an EventsWatch's word that it changed). read_details reads
  // the others. Every other field, and those of a file that fails (the error names it), keeps
  // its value.
  Status read_counters(CgroupStats& out, bool memory_events = true);
  // The files read_counters leaves out: limits, memory.stat, I/O, pids, cpuacct.stat and PSI,
  // the costlier half of a read that changes slowly or explains a change the counters show.
  Status read_details(CgroupStats& out);

  // Only the numbers that move within a CFS period, into `out`: the CPU counters (cpu.stat, and
  // on v1 cpuacct.usage) and the memory usage. What the fast tier reads: two or three preads
  // instead of every file's. Every other field, and those of a file that fails (the error names
  // it), keeps its value. The memory usage only when `memory_usage`: the fast tier reads it for a
  // container near its limit, where a 10 ms peak matters, not for one that is there for its
  // throttling.
  Status read_fast(CgroupStats& out, bool memory_usage = true);

  [[nodiscard]] bool has(CgroupFile file) const { return files_[index(file)].has_value(); }
  [[nodiscard]] const std::string& path() const { return path_; }
  // Where the file was opened; nothing when the cgroup has no such file.
  [[nodiscard]] std::optional<std::filesystem::path> file_path(CgroupFile file) const;

 private:
  ContainerReader(std::string path, CgroupMode mode, int64_t us_per_tick);
  static constexpr size_t index(CgroupFile file) { return static_cast<size_t>(file); }

  // Reads one open file into `out`, keeping the first failure in `first_error`.
  void read_file(CgroupFile file, CgroupStats& out, Status& first_error);
  // Parses one file's bytes into `out`; v1's blkio pair is read together, under blkio_bytes.
  Status take(CgroupFile file, std::string_view bytes, CgroupStats& out);

  std::string path_;
  CgroupMode mode_;
  int64_t us_per_tick_;  // µs per USER_HZ tick, for cpuacct.stat
  std::array<std::optional<sampler::FileReader>, kCgroupFileCount> files_;
};

}  // namespace flightrec::container
