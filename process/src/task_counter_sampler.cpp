#include "flightrec/process/task_counter_sampler.h"

#include <time.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <utility>

#include "flightrec/common/clock.h"
#include "process_identity.h"

namespace flightrec::process {
namespace {

bool by_pid(const TaskCounters& a, const TaskCounters& b) { return a.pid < b.pid; }

}  // namespace

TaskCounterSampler::TaskCounterSampler(const sampler::ProcRoot& root,
                                       const ProcessSamplerOptions& options,
                                       std::unique_ptr<TaskCounterReader> reader,
                                       std::string backend)
    : table_(root, options.units),
      redactor_(options.redact_cmdline),
      max_count_(options.max_count),
      reader_(std::move(reader)),
      backend_(std::move(backend)) {}

void TaskCounterSampler::sample(ProcessFrame& out) {
  const int64_t started = clock_ns(CLOCK_MONOTONIC);
  out.begin_tick(clock_ns(CLOCK_REALTIME));
  rows_ = 0;
  reread_identities_ = false;
  if (auto redactor = take_redactor()) {
    redactor_ = std::move(*redactor);
    reread_identities_ = true;  // every command line again, through the new pattern
  }

  // The processes the reader misses are looked for once; the listing must come before the read.
  std::vector<int32_t> listed;
  if (!looked_for_hidden_ && table_.list_pids(listed) != 0) listed.clear();
  if (const Status read = reader_->read(counters_); !read) {
    ++stats_.read_errors_total;
    stats_.last_error = backend_ + " process read: " + read.error();
    counters_.clear();
    // The last known rows stand in, as for a failed /proc read; nothing is taken for an exit.
    for (const auto& process : tracked_) {
      if (rows_ < max_count_) emit(process->row, out);
    }
  } else {
    // The iterator walks PIDs in order; a reader that does not is sorted rather than trusted.
    if (!std::is_sorted(counters_.begin(), counters_.end(), by_pid)) {
      std::sort(counters_.begin(), counters_.end(), by_pid);
    }
    if (!looked_for_hidden_) find_hidden(listed);
    looked_for_hidden_ = true;
    read_hidden();
    counters_.erase(std::unique(counters_.begin(), counters_.end(),
                                [](const auto& a, const auto& b) { return a.pid == b.pid; }),
                    counters_.end());
    merge(out);
  }
  out.processes.resize(rows_);
  stats_.dropped_last_tick = out.processes_dropped != 0;
  stats_.processes = static_cast<uint32_t>(rows_);
  stats_.last_sample_duration_ns = clock_ns(CLOCK_MONOTONIC) - started;
}

void TaskCounterSampler::find_hidden(const std::vector<int32_t>& listed) {
  for (const int32_t pid : listed) {
    const bool seen =
        std::binary_search(counters_.begin(), counters_.end(), TaskCounters{.pid = pid}, by_pid);
    PidDir dir;
    // Listed before the read and still there after it: the reader cannot see it.
    if (!seen && table_.open(pid, dir) == 0) hidden_.push_back(pid);
  }
}

void TaskCounterSampler::read_hidden() {
  const size_t read = counters_.size();
  std::erase_if(hidden_, [&](int32_t pid) {
    PidDir dir;
    if (table_.open(pid, dir) != 0 || dir.read("stat", scratch_) != 0) return true;  // exited
    const Result<PidStat> stat = parse_pid_stat(scratch_);
    if (!stat.ok()) {
      ++stats_.read_errors_total;
      stats_.last_error =
          (table_.root().procfs / std::to_string(pid) / "stat").string() + ": " + stat.error();
      return false;
    }
    PidIo io;
    if (dir.read("io", scratch_) == 0) {
      if (Result<PidIo> parsed = parse_pid_io(scratch_); parsed.ok()) io = *parsed;
    }
    counters_.push_back(counters_from_procfs(*stat, io, table_.units()));
    return false;
  });
  std::inplace_merge(counters_.begin(), counters_.begin() + static_cast<ptrdiff_t>(read),
                     counters_.end(), by_pid);
}

void TaskCounterSampler::merge(ProcessFrame& out) {
  // The known processes and the read, both in PID order.
  next_.clear();
  size_t t = 0;
  size_t c = 0;
  while (t < tracked_.size() || c < counters_.size()) {
    const bool has_tracked = t < tracked_.size();
    const bool has_counters = c < counters_.size();
    const int32_t pid = has_tracked && (!has_counters || tracked_[t]->row.pid <= counters_[c].pid)
                            ? tracked_[t]->row.pid
                            : counters_[c].pid;
    const TaskCounters* live = has_counters && counters_[c].pid == pid ? &counters_[c++] : nullptr;
    std::unique_ptr<Tracked>* known =
        has_tracked && tracked_[t]->row.pid == pid ? &tracked_[t++] : nullptr;
    if (rows_ >= max_count_) {
      if (live != nullptr) ++out.processes_dropped;
      continue;  // a known process left out is forgotten and read afresh when there is room
    }
    if (known != nullptr && live != nullptr &&
        (*known)->start_boottime_ns == live->start_boottime_ns) {
      update(**known, *live);
      emit((*known)->row, out);
      next_.push_back(std::move(*known));
    } else if (known != nullptr) {
      // Gone, or its PID reused: the newcomer is read next tick, so one PID has one row.
      emit_exited(**known, out);
    } else {
      admit(*live, out);
    }
  }
  tracked_.swap(next_);
  next_.clear();
}

void TaskCounterSampler::admit(const TaskCounters& counters, ProcessFrame& out) {
  auto owned = std::make_unique<Tracked>();
  owned->row.pid = counters.pid;
  owned->start_boottime_ns = counters.start_boottime_ns;
  if (!read_identity(*owned, counters)) return;
  apply_task_counters(counters, owned->reported, table_.units(), owned->row);
  emit(owned->row, out);
  next_.push_back(std::move(owned));
}

void TaskCounterSampler::update(Tracked& process, const TaskCounters& counters) {
  // exec changes comm, and with it the command line, possibly the uid and cgroup. Should that
  // read fail, the old identity stands; an exit shows on the next tick.
  if (process.comm != counters.comm || reread_identities_) {
    static_cast<void>(read_identity(process, counters));
  }
  apply_task_counters(counters, process.reported, table_.units(), process.row);
}

void TaskCounterSampler::emit_exited(Tracked& process, ProcessFrame& out) {
  process.row.exited = true;
  process.row.state = 'x';
  emit(process.row, out);
  ++stats_.vanished_total;
}

bool TaskCounterSampler::read_identity(Tracked& process, const TaskCounters& counters) {
  process.comm = counters.comm;  // tried once per comm, whatever the outcome
  PidDir dir;
  if (const int error = table_.open(counters.pid, dir); error != 0) {
    if (process_vanished(error)) {
      ++stats_.vanished_total;
    } else {
      ++stats_.read_errors_total;
      stats_.last_error = (table_.root().procfs / std::to_string(counters.pid)).string() + ": " +
                          std::strerror(error);
    }
    return false;
  }
  IdentityRead read = read_process_identity(table_, dir, redactor_, process.row);
  if (!read.error.empty()) {
    ++stats_.read_errors_total;
    stats_.last_error = std::move(read.error);
  }
  // Another process behind the PID by now: this one is gone, the other is read next tick.
  if (read.outcome == ReadOutcome::ok &&
      read.info.stat.starttime != start_ticks(counters.start_boottime_ns, table_.units().user_hz)) {
    read.outcome = ReadOutcome::vanished;
  }
  if (read.outcome == ReadOutcome::vanished) ++stats_.vanished_total;
  if (read.outcome != ReadOutcome::ok) return false;
  // procfs's name, which for kernel threads is longer than task->comm (kworker/0:1-events).
  process.row.comm = std::move(read.info.stat.comm);
  return true;
}

void TaskCounterSampler::emit(const ProcessRow& row, ProcessFrame& out) {
  if (rows_ < out.processes.size()) {
    out.processes[rows_] = row;
  } else {
    out.processes.push_back(row);
  }
  ++rows_;
}

}  // namespace flightrec::process
