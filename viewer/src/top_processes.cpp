#include "flightrec/viewer/top_processes.h"

#include <algorithm>
#include <utility>

#include "flightrec/model/process_rates.h"

namespace flightrec::viewer {
namespace {

using process::ProcessFrame;
using process::ProcessRow;

// The two frames to compare: the last at or before `at_ns` and the one after it, clamped to the
// recording's ends.
std::pair<const ProcessFrame*, const ProcessFrame*> frames_around(
    std::span<const ProcessFrame> frames, int64_t at_ns) {
  const auto after = std::upper_bound(
      frames.begin(), frames.end(), at_ns,
      [](int64_t at, const ProcessFrame& frame) { return at < frame.time_unix_ns; });
  if (frames.size() == 1) return {&frames[0], &frames[0]};
  const size_t second =
      std::clamp<size_t>(static_cast<size_t>(after - frames.begin()), 1, frames.size() - 1);
  return {&frames[second - 1], &frames[second]};
}

bool busier(const ProcessUsage& a, const ProcessUsage& b) {
  const double ca = a.cpu_ratio.value_or(-1.0);
  const double cb = b.cpu_ratio.value_or(-1.0);
  if (ca != cb) return ca > cb;
  if (a.rss_bytes != b.rss_bytes) return a.rss_bytes > b.rss_bytes;
  return a.pid < b.pid;
}

}  // namespace

TopProcesses top_processes(std::span<const ProcessFrame> frames, int64_t at_ns, size_t limit) {
  TopProcesses top;
  if (frames.empty()) return top;
  const auto [first, second] = frames_around(frames, at_ns);
  top.from_ns = first->time_unix_ns;
  top.to_ns = second->time_unix_ns;

  // With one frame only, first == second: no time passed, so no rates.
  const auto rates = model::process_rates(first, *second);
  for (size_t i = 0; i < second->processes.size(); ++i) {
    const ProcessRow& row = second->processes[i];
    const auto& measured = rates.processes[i];
    top.rows.push_back({.pid = row.pid,
                        .comm = row.comm,
                        .cmdline = row.cmdline,
                        .state = row.state,
                        .cpu_ratio = measured.cpu,
                        .rss_bytes = row.rss_bytes,
                        .read_bytes_per_second = measured.read_bytes,
                        .write_bytes_per_second = measured.write_bytes,
                        .transmit_bytes_per_second = measured.net.tx_bytes,
                        .receive_bytes_per_second = measured.net.rx_bytes});
  }
  const size_t kept = std::min(limit, top.rows.size());
  std::partial_sort(top.rows.begin(), top.rows.begin() + static_cast<std::ptrdiff_t>(kept),
                    top.rows.end(), busier);
  top.rows.resize(kept);
  return top;
}

std::vector<ProcessFrame> frames_near(
    std::span<const std::shared_ptr<const store::ProcessBlock>> blocks, int64_t at_ns) {
  constexpr int64_t kSecond = 1'000'000'000;
  std::vector<ProcessFrame> frames;
  for (int64_t reach = kSecond; reach <= 128 * kSecond; reach *= 2) {
    frames.clear();
    const int64_t from = at_ns - reach;
    const int64_t to = at_ns + reach;
    for (const auto& block : blocks) {
      if (block->last_time_ns() < from || block->first_time_ns() > to) continue;
      block->for_each_frame([&](const ProcessFrame& frame) {
        if (frame.time_unix_ns >= from && frame.time_unix_ns <= to) frames.push_back(frame);
        return frame.time_unix_ns <= to;
      });
    }
    if (frames.size() >= 2) break;
  }
  return frames;
}

}  // namespace flightrec::viewer
