#include "flightrec/replay/process_view.h"

#include <algorithm>

#include "flightrec/model/process_rates.h"

namespace flightrec::replay {

using process::ProcessFrame;

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
  const auto rates = model::process_rates(at.previous, *current);
  for (size_t i = 0; i < current->processes.size(); ++i) {
    const auto& row = current->processes[i];
    const auto& measured = rates.processes[i];
    ProcessRates view{.row = &row,
                      .cpu = measured.cpu,
                      .read_bps = measured.read_bytes,
                      .write_bps = measured.write_bytes,
                      .tx_bps = measured.net.tx_bytes,
                      .rx_bps = measured.net.rx_bytes,
                      .tx_pps = measured.net.tx_packets,
                      .rx_pps = measured.net.rx_packets};
    if (mem_total_bytes && *mem_total_bytes > 0) {
      view.mem = static_cast<double>(row.rss_bytes) / *mem_total_bytes;
    }
    at.rows.push_back(view);
  }
  at.unattributed_tx_bps = rates.unattributed.tx_bytes;
  at.unattributed_rx_bps = rates.unattributed.rx_bytes;
  return at;
}

}  // namespace flightrec::replay
