#include "flightrec/viewer/top_processes.h"

#include <algorithm>
#include <map>
#include <utility>

namespace flightrec::viewer {
namespace {

using sampler::process::ProcessFrame;
using sampler::process::ProcessRow;

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

// (to - from) per second; empty when either side is unknown or the counter went backwards.
std::optional<double> rate(std::optional<uint64_t> from, std::optional<uint64_t> to,
                           double seconds) {
  if (!from || !to || *to < *from || seconds <= 0) return std::nullopt;
  return static_cast<double>(*to - *from) / seconds;
}

std::optional<uint64_t> member(const std::optional<sampler::process::NetCounters>& net,
                               uint64_t sampler::process::NetCounters::*field) {
  if (!net) return std::nullopt;
  return (*net).*field;
}

ProcessUsage usage_of(const ProcessRow* before, const ProcessRow& now, double seconds) {
  ProcessUsage usage{.pid = now.pid,
                     .comm = now.comm,
                     .cmdline = now.cmdline,
                     .state = now.state,
                     .rss_bytes = now.rss_bytes};
  if (before == nullptr) return usage;
  const uint64_t cpu_then = before->cpu_user_ns + before->cpu_system_ns;
  const uint64_t cpu_now = now.cpu_user_ns + now.cpu_system_ns;
  if (const auto cpu = rate(cpu_then, cpu_now, seconds)) usage.cpu_ratio = *cpu / 1e9;
  usage.read_bytes_per_second = rate(before->io_read_bytes, now.io_read_bytes, seconds);
  usage.write_bytes_per_second = rate(before->io_write_bytes, now.io_write_bytes, seconds);
  using sampler::process::NetCounters;
  usage.transmit_bytes_per_second = rate(member(before->net, &NetCounters::tx_bytes),
                                         member(now.net, &NetCounters::tx_bytes), seconds);
  usage.receive_bytes_per_second = rate(member(before->net, &NetCounters::rx_bytes),
                                        member(now.net, &NetCounters::rx_bytes), seconds);
  return usage;
}

// A process that started after the first frame held nothing then: its counters are all its own.
ProcessRow zero_counters_of(const ProcessRow& row) {
  ProcessRow zero;
  zero.pid = row.pid;
  zero.start_time_unix_ns = row.start_time_unix_ns;
  if (row.io_read_bytes) zero.io_read_bytes = 0;
  if (row.io_write_bytes) zero.io_write_bytes = 0;
  if (row.net) zero.net = sampler::process::NetCounters{};
  return zero;
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
  const double seconds = static_cast<double>(top.to_ns - top.from_ns) / 1e9;

  std::map<int32_t, const ProcessRow*> earlier;
  if (first != second) {
    for (const auto& row : first->processes) earlier.emplace(row.pid, &row);
  }
  for (const auto& row : second->processes) {
    const auto match = earlier.find(row.pid);
    if (match != earlier.end() && match->second->start_time_unix_ns == row.start_time_unix_ns) {
      top.rows.push_back(usage_of(match->second, row, seconds));
    } else if (first != second && row.start_time_unix_ns > top.from_ns) {
      const ProcessRow zero = zero_counters_of(row);
      top.rows.push_back(usage_of(&zero, row, seconds));
    } else {
      top.rows.push_back(usage_of(nullptr, row, seconds));
    }
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
