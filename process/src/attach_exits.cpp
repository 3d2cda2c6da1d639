// Merges the kernel's exit reports into a process frame.
#include <algorithm>
#include <cstdint>

#include "flightrec/process/process_exits.h"

namespace flightrec::process {

size_t attach_exits(ProcessFrame& frame, std::span<const ExitedProcess> exits) {
  auto& rows = frame.processes;
  const size_t listed = rows.size();
  // At processes.max_count the frame holds only the lowest PIDs: an exit above its last row was a
  // process left out anyway.
  const int32_t cut = frame.processes_dropped > 0 && listed > 0 ? rows[listed - 1].pid : INT32_MAX;
  const auto by_pid = [](const ProcessRow& row, int32_t pid) { return row.pid < pid; };
  for (const ExitedProcess& exited : exits) {
    if (exited.pid > cut) continue;
    const auto end = rows.begin() + static_cast<std::ptrdiff_t>(listed);
    const auto row = std::lower_bound(rows.begin(), end, exited.pid, by_pid);
    if (row != end && row->pid == exited.pid) {
      if (row->exited) {
        row->cpu_user_ns = std::max(row->cpu_user_ns, exited.cpu_user_ns);
        row->cpu_system_ns = std::max(row->cpu_system_ns, exited.cpu_system_ns);
        row->rss_bytes = std::max(row->rss_bytes, exited.rss_bytes);
      }
      continue;
    }
    ProcessRow added;
    added.pid = exited.pid;
    added.ppid = exited.ppid;
    added.uid = exited.uid;
    added.state = 'x';
    added.exited = true;
    added.comm = exited.comm;
    added.start_time_unix_ns = exited.start_time_unix_ns;
    added.cpu_user_ns = exited.cpu_user_ns;
    added.cpu_system_ns = exited.cpu_system_ns;
    added.rss_bytes = exited.rss_bytes;
    rows.push_back(std::move(added));
  }
  const auto order = [](const ProcessRow& a, const ProcessRow& b) { return a.pid < b.pid; };
  const auto middle = rows.begin() + static_cast<std::ptrdiff_t>(listed);
  std::stable_sort(middle, rows.end(), order);
  // A pid that ran twice between two ticks (reused) is reported twice, in exit order: keep the
  // latest run, the last of each run of equal pids.
  auto kept = middle;
  for (auto it = middle; it != rows.end(); ++it) {
    if (std::next(it) != rows.end() && std::next(it)->pid == it->pid) continue;
    if (kept != it) *kept = std::move(*it);
    ++kept;
  }
  rows.erase(kept, rows.end());
  std::inplace_merge(rows.begin(), middle, rows.end(), order);
  return rows.size() - listed;
}

}  // namespace flightrec::process
