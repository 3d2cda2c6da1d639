#pragma once
// The daemon's own CPU time by thread group, from <procfs>/self/task/*/schedstat (nanoseconds on
// CPU as the scheduler accounts them, unlike the tick-sampled utime/stime of stat) and each
// thread's comm. Our threads are named by the daemon ("sampler", "recorder", "processes");
// civetweb's ("civetweb-*") are the HTTP server; everything else (main, writers) is "other".
#include <array>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string_view>
#include <unordered_map>

#include "flightrec/common/enum_names.h"
#include "flightrec/common/fd.h"

namespace flightrec::exporter::metrics {

enum class ThreadGroup : uint8_t { sampler, recorder, processes, http, other };
// Each group's `thread` label, in the enum's order.
inline constexpr EnumName<ThreadGroup> kThreadGroupNames[] = {{ThreadGroup::sampler, "sampler"},
                                                              {ThreadGroup::recorder, "recorder"},
                                                              {ThreadGroup::processes, "processes"},
                                                              {ThreadGroup::http, "http"},
                                                              {ThreadGroup::other, "other"}};
static_assert(names_are_distinct(kThreadGroupNames) && rows_follow_values(kThreadGroupNames));
inline constexpr size_t kThreadGroups = std::size(kThreadGroupNames);

// The group a thread of this name belongs to.
ThreadGroup thread_group_of(std::string_view comm);
[[nodiscard]] constexpr std::string_view thread_group_name(ThreadGroup group) {
  return name_of(kThreadGroupNames, group);
}

// The first field of a schedstat line; false when the text is not one.
bool parse_schedstat_ns(std::string_view text, uint64_t& ns);

// Cumulative CPU per group that never goes backwards: a thread that exits takes its time out of
// the task directory, so its last value seen is kept in the group's accumulator. Time it spent
// between the last read and its exit is not counted (reads are per scrape, so at most a scrape
// interval of one exiting thread). Each thread's schedstat stays open between reads (one pread
// per thread per read: opening the path each time cost ~25 µs a thread); comm is read when a
// thread is first seen, and again while it is in "other" (it may not have named itself yet).
// Safe to call from several threads at once.
class ThreadCpuReader {
 public:
  using Totals = std::array<uint64_t, kThreadGroups>;  // ns, indexed by ThreadGroup

  explicit ThreadCpuReader(std::filesystem::path procfs = "/proc") : procfs_(std::move(procfs)) {}

  // Reads every task now; false (and totals of the last successful read) when the task
  // directory cannot be listed.
  bool read(Totals& out);

 private:
  struct Thread {
    Fd schedstat;
    ThreadGroup group = ThreadGroup::other;
    uint64_t ns = 0;
  };

  // Refreshes a known thread; false when it is gone (its open schedstat no longer reads).
  bool refresh(int64_t tid, Thread& thread) const;
  void add(int64_t tid);
  [[nodiscard]] std::filesystem::path task_dir() const { return procfs_ / "self" / "task"; }

  std::filesystem::path procfs_;
  std::mutex mutex_;
  std::unordered_map<int64_t, Thread> live_;  // by tid
  Totals exited_{};
  Totals last_{};
};

}  // namespace flightrec::exporter::metrics
