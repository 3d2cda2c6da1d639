#include "flightrec/replay/process_view.h"

#include <algorithm>

namespace flightrec::replay {
namespace {

using sampler::process::ProcessFrame;
using sampler::process::ProcessRow;

std::optional<double> per_second(std::optional<uint64_t> before, std::optional<uint64_t> now,
                                 double seconds) {
  if (!before || !now || *now < *before || seconds <= 0) return std::nullopt;
  return static_cast<double>(*now - *before) / seconds;
}

const ProcessRow* same_process(const ProcessFrame& frame, const ProcessRow& row) {
  const auto found = std::lower_bound(
      frame.processes.begin(), frame.processes.end(), row.pid,
      [](const ProcessRow& candidate, int32_t pid) { return candidate.pid < pid; });
  if (found == frame.processes.end() || found->pid != row.pid) return nullptr;
  if (found->start_time_unix_ns != row.start_time_unix_ns) return nullptr;
  return &*found;
}

template <typename Field>
std::optional<uint64_t> net_field(const std::optional<sampler::process::NetCounters>& net,
                                  Field field) {
  if (!net) return std::nullopt;
  return (*net).*field;
}

}  // namespace

ProcessesAt processes_at(const std::vector<ProcessFrame>& frames, int64_t time_ns,
                         int64_t interval_ns, std::optional<double> mem_total_bytes) {
  ProcessesAt at;
  const auto newest_at_or_before = [&](int64_t t) {
    return std::upper_bound(
        frames.begin(), frames.end(), t,
        [](int64_t value, const ProcessFrame& f) { return value < f.time_unix_ns; });
  };
  const auto after = newest_at_or_before(time_ns);
  if (after == frames.begin()) return at;
  const auto current = after - 1;
  at.frame = &*current;
  if (current != frames.begin()) {
    auto start = newest_at_or_before(current->time_unix_ns - std::max<int64_t>(interval_ns, 0));
    if (start == frames.begin()) start = current;  // nothing that far back: the frame before
    at.previous = &*std::min(start - 1, current - 1);
  }
  const double seconds =
      at.previous ? static_cast<double>(current->time_unix_ns - at.previous->time_unix_ns) / 1e9
                  : 0.0;
  using sampler::process::NetCounters;
  for (const ProcessRow& row : current->processes) {
    ProcessRates rates;
    rates.row = &row;
    if (mem_total_bytes && *mem_total_bytes > 0) {
      rates.mem = static_cast<double>(row.rss_bytes) / *mem_total_bytes;
    }
    const ProcessRow* before = at.previous ? same_process(*at.previous, row) : nullptr;
    if (before != nullptr) {
      rates.cpu = per_second(before->cpu_user_ns + before->cpu_system_ns,
                             row.cpu_user_ns + row.cpu_system_ns, seconds);
      if (rates.cpu) *rates.cpu /= 1e9;
      rates.read_bps = per_second(before->io_read_bytes, row.io_read_bytes, seconds);
      rates.write_bps = per_second(before->io_write_bytes, row.io_write_bytes, seconds);
      rates.tx_bps = per_second(net_field(before->net, &NetCounters::tx_bytes),
                                net_field(row.net, &NetCounters::tx_bytes), seconds);
      rates.rx_bps = per_second(net_field(before->net, &NetCounters::rx_bytes),
                                net_field(row.net, &NetCounters::rx_bytes), seconds);
      rates.tx_pps = per_second(net_field(before->net, &NetCounters::tx_packets),
                                net_field(row.net, &NetCounters::tx_packets), seconds);
      rates.rx_pps = per_second(net_field(before->net, &NetCounters::rx_packets),
                                net_field(row.net, &NetCounters::rx_packets), seconds);
    }
    at.rows.push_back(rates);
  }
  if (at.previous) {
    at.unattributed_tx_bps =
        per_second(net_field(at.previous->unattributed, &NetCounters::tx_bytes),
                   net_field(current->unattributed, &NetCounters::tx_bytes), seconds);
    at.unattributed_rx_bps =
        per_second(net_field(at.previous->unattributed, &NetCounters::rx_bytes),
                   net_field(current->unattributed, &NetCounters::rx_bytes), seconds);
  }
  return at;
}

}  // namespace flightrec::replay
