#include "flightrec/model/process_rates.h"

#include <algorithm>

namespace flightrec::model {

using process::NetCounters;
using process::ProcessFrame;
using process::ProcessRow;
namespace {

// The network backend keeps no start time: its rows for processes gone from /proc carry 0.
constexpr int64_t kUnknownStart = 0;

// A /proc start time is /proc/stat's btime (whole seconds) plus clock ticks (USER_HZ, 10 ms), both
// rounded down: a process can look up to that much older than it is. Without this margin one
// born just after the earlier frame would get no rate, and its first traffic would vanish.
constexpr int64_t kStartTimeResolutionNs = 1'000'000'000 + 10'000'000;

std::optional<double> per_second(std::optional<uint64_t> from, std::optional<uint64_t> to,
                                 double seconds) {
  if (!from || !to || *to < *from) return std::nullopt;
  return static_cast<double>(*to - *from) / seconds;
}

NetRates net_rates(const std::optional<NetCounters>& from, const std::optional<NetCounters>& to,
                   double seconds) {
  if (!from || !to) return {};
  return {.tx_bytes = per_second(from->tx_bytes, to->tx_bytes, seconds),
          .rx_bytes = per_second(from->rx_bytes, to->rx_bytes, seconds),
          .tx_packets = per_second(from->tx_packets, to->tx_packets, seconds),
          .rx_packets = per_second(from->rx_packets, to->rx_packets, seconds)};
}

// `from_net` apart from `from`: an earlier row's traffic may be known as zero without counters.
ProcessRates rates_of(const ProcessRow& from, const std::optional<NetCounters>& from_net,
                      const ProcessRow& to, double seconds) {
  ProcessRates rates{.read_bytes = per_second(from.io_read_bytes, to.io_read_bytes, seconds),
                     .write_bytes = per_second(from.io_write_bytes, to.io_write_bytes, seconds),
                     .net = net_rates(from_net, to.net, seconds)};
  const auto cpu_ns =
      per_second(from.cpu_user_ns + from.cpu_system_ns, to.cpu_user_ns + to.cpu_system_ns, seconds);
  if (cpu_ns) rates.cpu = *cpu_ns * 1e-9;
  return rates;
}

// The row of `earlier` that `row` continues: same pid and start time, or the first row of its
// pid when its start time is unknown (the row the backend's counters were attached to then).
const ProcessRow* same_process(const ProcessFrame& earlier, const ProcessRow& row) {
  const auto& rows = earlier.processes;
  auto it = std::lower_bound(
      rows.begin(), rows.end(), row.pid,
      [](const ProcessRow& candidate, int32_t pid) { return candidate.pid < pid; });
  for (; it != rows.end() && it->pid == row.pid; ++it) {
    if (row.start_time_unix_ns == kUnknownStart ||
        it->start_time_unix_ns == row.start_time_unix_ns) {
      return &*it;
    }
  }
  return nullptr;
}

// A backend counts each process from when it first sees it, and sets `unattributed` on every
// reading: in a frame it covered, a row without counters had moved nothing it saw yet.
std::optional<NetCounters> net_of(const ProcessFrame& frame, const ProcessRow& row) {
  if (!row.net && frame.unattributed) return NetCounters{};
  return row.net;
}

// What a process had before it started: zero of each counter it has now.
ProcessRow before_birth(const ProcessRow& row) {
  ProcessRow zero;
  if (row.io_read_bytes) zero.io_read_bytes = 0;
  if (row.io_write_bytes) zero.io_write_bytes = 0;
  if (row.net) zero.net = NetCounters{};
  return zero;
}

}  // namespace

FrameRates process_rates(const ProcessFrame* earlier, const ProcessFrame& later) {
  FrameRates rates;
  rates.processes.resize(later.processes.size());
  if (earlier == nullptr || later.time_unix_ns <= earlier->time_unix_ns) return rates;
  rates.seconds = static_cast<double>(later.time_unix_ns - earlier->time_unix_ns) * 1e-9;
  for (size_t i = 0; i < later.processes.size(); ++i) {
    const ProcessRow& row = later.processes[i];
    if (const ProcessRow* before = same_process(*earlier, row)) {
      rates.processes[i] = rates_of(*before, net_of(*earlier, *before), row, rates.seconds);
    } else if (row.start_time_unix_ns > earlier->time_unix_ns - kStartTimeResolutionNs ||
               row.start_time_unix_ns == kUnknownStart) {
      const ProcessRow zero = before_birth(row);
      rates.processes[i] = rates_of(zero, zero.net, row, rates.seconds);
    }
  }
  rates.unattributed = net_rates(earlier->unattributed, later.unattributed, rates.seconds);
  return rates;
}

}  // namespace flightrec::model
