#include "flightrec/viewer/top_processes.h"

#include <algorithm>
#include <limits>
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

bool bigger(const ProcessUsage& a, const ProcessUsage& b) {
  if (a.rss_bytes != b.rss_bytes) return a.rss_bytes > b.rss_bytes;
  return busier(a, b);
}

bool growing(const ProcessUsage& a, const ProcessUsage& b) {
  constexpr int64_t kUnknown = std::numeric_limits<int64_t>::min();
  const int64_t ga = a.rss_growth_bytes.value_or(kUnknown);
  const int64_t gb = b.rss_growth_bytes.value_or(kUnknown);
  if (ga != gb) return ga > gb;
  return bigger(a, b);
}

// Marks the first `limit` of `rows` in `order` as kept.
template <typename Order>
void keep_first(std::vector<ProcessUsage>& rows, size_t limit, Order order,
                std::vector<bool>& kept) {
  std::vector<size_t> index(rows.size());
  for (size_t i = 0; i < index.size(); ++i) index[i] = i;
  const size_t first = std::min(limit, index.size());
  std::partial_sort(index.begin(), index.begin() + static_cast<std::ptrdiff_t>(first), index.end(),
                    [&](size_t a, size_t b) { return order(rows[a], rows[b]); });
  for (size_t i = 0; i < first; ++i) kept[index[i]] = true;
}

}  // namespace

TopProcesses top_processes(std::span<const ProcessFrame> frames, int64_t at_ns, size_t limit,
                           const RssGrowth& growth, ProcessSort sort) {
  TopProcesses top{.growth_from_ns = growth.from_ns, .growth_to_ns = growth.to_ns, .sort = sort};
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
                        .rss_growth_bytes = growth.of(row.pid, row.start_time_unix_ns),
                        .read_bytes_per_second = measured.read_bytes,
                        .write_bytes_per_second = measured.write_bytes,
                        .transmit_bytes_per_second = measured.net.tx_bytes,
                        .receive_bytes_per_second = measured.net.rx_bytes});
  }
  std::vector<bool> kept(top.rows.size(), false);
  keep_first(top.rows, limit, busier, kept);
  keep_first(top.rows, limit, bigger, kept);
  keep_first(top.rows, limit, growing, kept);
  std::vector<ProcessUsage> rows;
  for (size_t i = 0; i < top.rows.size(); ++i) {
    if (kept[i]) rows.push_back(std::move(top.rows[i]));
  }
  std::sort(rows.begin(), rows.end(), sort == ProcessSort::rss ? bigger : busier);
  top.rows = std::move(rows);
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
