#include "flightrec/model/rankings.h"

#include <algorithm>

namespace flightrec::model {
namespace {

// Largest `n` by value; ties by pid.
void keep_top(std::vector<Ranked>& ranked, const process::ProcessFrame& frame, size_t n) {
  const auto order = [&](const Ranked& a, const Ranked& b) {
    if (a.value != b.value) return a.value > b.value;
    return frame.processes[a.row].pid < frame.processes[b.row].pid;
  };
  if (ranked.size() > n) {
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(n), ranked.end(),
                      order);
    ranked.resize(n);
  } else {
    std::sort(ranked.begin(), ranked.end(), order);
  }
}

}  // namespace

Rankings rank_processes(const process::ProcessFrame& frame, const FrameRates& rates, size_t top_n) {
  Rankings rankings;
  for (size_t i = 0; i < frame.processes.size(); ++i) {
    const auto rss = frame.processes[i].rss_bytes;
    if (rss > 0) rankings.memory.push_back({static_cast<double>(rss), i});
    if (i >= rates.processes.size()) continue;
    const ProcessRates& r = rates.processes[i];
    if (r.cpu && *r.cpu > 0) rankings.cpu.push_back({*r.cpu, i});
    const double traffic = r.net.tx_bytes.value_or(0) + r.net.rx_bytes.value_or(0);
    if (traffic > 0) rankings.network.push_back({traffic, i});
  }
  keep_top(rankings.cpu, frame, top_n);
  keep_top(rankings.memory, frame, top_n);
  keep_top(rankings.network, frame, top_n);
  return rankings;
}

}  // namespace flightrec::model
