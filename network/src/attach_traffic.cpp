// Merges a backend's per-process counters into a process frame.
#include <algorithm>
#include <cstdint>

#include "flightrec/network/traffic_backend.h"

namespace flightrec::network {

using process::ProcessRow;

void attach_traffic(process::ProcessFrame& frame, const TrafficReading& reading) {
  auto& rows = frame.processes;
  const auto by_pid = [](const ProcessRow& row, int32_t pid) { return row.pid < pid; };
  const size_t listed = rows.size();  // rows appended below are not searched again
  // At processes.max_count the frame holds only the lowest PIDs: a PID above its last row may be
  // alive and merely left out, so only PIDs below it are known to be gone.
  const int32_t cut = frame.processes_dropped > 0 && listed > 0 ? rows[listed - 1].pid : INT32_MAX;
  for (const ProcessTraffic& traffic : reading.processes) {
    const auto end = rows.begin() + static_cast<std::ptrdiff_t>(listed);
    auto row = std::lower_bound(rows.begin(), end, traffic.pid, by_pid);
    if (row != end && row->pid == traffic.pid) {
      row->net = traffic.counters;
      row->net_device = traffic.device;
      continue;
    }
    if (traffic.pid > cut) continue;
    // Gone from /proc (or never there: it lived between two process ticks), but the backend
    // still holds its totals: keep them, or its traffic would vanish from every sum.
    ProcessRow gone;
    gone.pid = traffic.pid;
    gone.state = 'x';
    gone.exited = true;
    gone.comm = traffic.comm;
    gone.net = traffic.counters;
    gone.net_device = traffic.device;
    rows.push_back(std::move(gone));
  }
  std::sort(rows.begin() + static_cast<std::ptrdiff_t>(listed), rows.end(),
            [](const ProcessRow& a, const ProcessRow& b) { return a.pid < b.pid; });
  std::inplace_merge(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(listed), rows.end(),
                     [](const ProcessRow& a, const ProcessRow& b) { return a.pid < b.pid; });
  frame.unattributed = reading.unattributed;
}

}  // namespace flightrec::network
