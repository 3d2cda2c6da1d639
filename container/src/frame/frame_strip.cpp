#include "flightrec/container/frame/frame_strip.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "flightrec/container/throttle/throttle_episodes.h"

namespace flightrec::container {
namespace {

using Frames = std::vector<ContainerFrame>;

// How long after its refill a period's episode may still be unreported by the frame of that
// moment: the recorder hands an episode out 10 ms after it ended (AssemblerSettings::settle_ns),
// and the refill ends it some tens of microseconds late.
constexpr int64_t kReportLagNs = 20'000'000;

const ContainerRow* row_of(const ContainerFrame& frame, std::string_view path) {
  const auto found =
      std::lower_bound(frame.containers.begin(), frame.containers.end(), path,
                       [](const ContainerRow& r, std::string_view p) { return r.path < p; });
  return found != frame.containers.end() && found->path == path ? &*found : nullptr;
}

// The frames whose span can hold the window's reads and episodes: from the newest at or before
// `from_ns` (its successors' fast reads and episodes start there) to the first after `to_ns`
// (which reports what ended before it).
std::pair<Frames::const_iterator, Frames::const_iterator> frames_over(const Frames& frames,
                                                                      int64_t from_ns,
                                                                      int64_t to_ns) {
  const auto by_time = [](int64_t t, const ContainerFrame& f) { return t < f.time_unix_ns; };
  auto first = std::upper_bound(frames.begin(), frames.end(), from_ns, by_time);
  if (first != frames.begin()) --first;
  auto last = std::upper_bound(frames.begin(), frames.end(), to_ns, by_time);
  if (last != frames.end()) ++last;
  return {first, last};
}

struct CpuRead {
  int64_t time_ns = 0;
  int64_t periods = kAbsent;
  int64_t throttled_periods = kAbsent;
  int64_t throttled_us = kAbsent;
};

ContainerStrip from_cpu_stat(Frames::const_iterator first, Frames::const_iterator last,
                             std::string_view path, int64_t period_ns, int64_t to_ns,
                             size_t max_cells) {
  std::vector<CpuRead> reads;
  for (auto frame = first; frame != last; ++frame) {
    const ContainerRow* row = row_of(*frame, path);
    if (row == nullptr) continue;
    const auto index = static_cast<uint32_t>(row - frame->containers.data());
    for (const auto& fast : frame->fast_reads) {
      if (fast.row == index) {
        reads.push_back(
            {fast.time_unix_ns, fast.periods, fast.throttled_periods, fast.throttled_us});
      }
    }
    const auto& cpu = row->stats.cpu;
    reads.push_back({frame->time_unix_ns, cpu.periods, cpu.throttled_periods, cpu.throttled_us});
  }
  std::stable_sort(reads.begin(), reads.end(),
                   [](const CpuRead& a, const CpuRead& b) { return a.time_ns < b.time_ns; });
  ContainerStrip strip{.source = StripSource::cpu_stat, .period_ns = period_ns, .cells = {}};
  for (size_t i = 1; i < reads.size(); ++i) {
    const CpuRead& a = reads[i - 1];
    const CpuRead& b = reads[i];
    if (b.time_ns > to_ns) break;
    const bool known = a.periods != kAbsent && b.periods != kAbsent &&
                       a.throttled_periods != kAbsent && b.throttled_periods != kAbsent &&
                       a.throttled_us != kAbsent && b.throttled_us != kAbsent;
    // Counters that went back are another cgroup under the same path: no cell across them.
    if (!known || b.periods <= a.periods || b.throttled_periods < a.throttled_periods ||
        b.throttled_us < a.throttled_us) {
      continue;
    }
    strip.cells.push_back({.start_ns = a.time_ns,
                           .end_ns = b.time_ns,
                           .periods = static_cast<uint32_t>(b.periods - a.periods),
                           .throttled_ns = (b.throttled_us - a.throttled_us) * 1000,
                           .throttled = b.throttled_periods > a.throttled_periods});
  }
  if (strip.cells.size() > max_cells) {
    strip.cells.erase(strip.cells.begin(),
                      strip.cells.end() - static_cast<std::ptrdiff_t>(max_cells));
  }
  if (strip.cells.empty()) strip.source = StripSource::none;
  return strip;
}

// Whether cpu.stat's nr_throttled of `path` grew over the frames.
bool throttled_between(Frames::const_iterator first, Frames::const_iterator last,
                       std::string_view path) {
  int64_t lowest = kAbsent;
  for (auto frame = first; frame != last; ++frame) {
    const ContainerRow* row = row_of(*frame, path);
    if (row == nullptr || row->stats.cpu.throttled_periods == kAbsent) continue;
    const int64_t throttled = row->stats.cpu.throttled_periods;
    if (lowest != kAbsent && throttled > lowest) return true;
    if (lowest == kAbsent || throttled < lowest) lowest = throttled;
  }
  return false;
}

// The episodes of `path`, in Unix ns (each frame turns its own: its wall and monotonic clocks were
// read together), and whether every frame of the range recorded them.
bool episodes_of(Frames::const_iterator first, Frames::const_iterator last, std::string_view path,
                 std::vector<ThrottleEpisode>& out) {
  for (auto frame = first; frame != last; ++frame) {
    if (!frame->episodes_recorded) return false;
    const ContainerRow* row = row_of(*frame, path);
    if (row == nullptr || row->cgroup_id == 0) continue;
    const int64_t offset = frame->time_unix_ns - frame->mono_ns;
    for (ThrottleEpisode episode : frame->episodes) {
      if (episode.cgroup_id != row->cgroup_id) continue;
      episode.start_ns += offset;
      episode.end_ns += offset;
      episode.period_end_ns += offset;
      out.push_back(episode);
    }
  }
  return true;
}

}  // namespace

std::string_view strip_source_name(StripSource source) {
  switch (source) {
    case StripSource::episodes:
      return "episodes";
    case StripSource::cpu_stat:
      return "cpu.stat";
    case StripSource::none:
      break;
  }
  return "none";
}

ContainerStrip container_strip(const Frames& frames, std::string_view path, int64_t to_ns,
                               size_t max_cells) {
  // The newest frame at or before the cursor that holds the container says its period and quota.
  const ContainerRow* current = nullptr;
  int64_t first_seen_ns = 0;
  int64_t last_seen_ns = 0;
  for (const ContainerFrame& frame : frames) {
    if (frame.time_unix_ns > to_ns) break;
    if (const ContainerRow* row = row_of(frame, path)) {
      if (current == nullptr) first_seen_ns = frame.time_unix_ns;
      current = row;
      last_seen_ns = frame.time_unix_ns;
    }
  }
  if (current == nullptr || max_cells == 0) return {};
  const auto& bandwidth = current->stats.bandwidth;
  if (bandwidth.quota_us == kAbsent || bandwidth.quota_us == kUnlimited ||
      bandwidth.period_us == kAbsent || bandwidth.period_us <= 0) {
    return {};
  }
  const int64_t period_ns = bandwidth.period_us * 1000;
  const auto span = static_cast<int64_t>(max_cells) * period_ns;
  const int64_t from_ns = std::max(to_ns - span, first_seen_ns);
  const auto [first, last] = frames_over(frames, from_ns, to_ns);

  std::vector<ThrottleEpisode> episodes;
  // No episode while cpu.stat counted throttled periods: the episodes missed this group (more
  // groups throttled at once than the program follows, its reports dropped); its counters say more.
  if (!episodes_of(first, last, path, episodes) ||
      (episodes.empty() && throttled_between(first, last, path))) {
    return from_cpu_stat(first, last, path, period_ns, to_ns, max_cells);
  }
  // Episodes are reported by the frame after they end: past the recording's last frame, what is
  // known ends shortly before the newest frame that holds the container.
  const bool reported_after = frames.back().time_unix_ns > to_ns;
  const int64_t known_to = reported_after ? to_ns : last_seen_ns - kReportLagNs;
  PeriodGrid grid{.period_ns = period_ns, .anchor_ns = known_to};
  if (!episodes.empty()) grid.anchor_ns = episodes.back().period_end_ns;
  // Whole periods only: the newest one ends at or before what is known.
  const int64_t phase = ((known_to - grid.anchor_ns) % period_ns + period_ns) % period_ns;
  const int64_t end_ns = known_to - phase;
  const int64_t start_ns = std::max(end_ns - span, from_ns);
  auto cells = period_strip(episodes, grid, start_ns, end_ns);
  if (!cells.ok() || cells->empty()) return {};
  ContainerStrip strip{.source = StripSource::episodes, .period_ns = period_ns, .cells = {}};
  for (const auto& cell : *cells) {
    // A period only partly inside the window (its first) is left out, so each cell is whole.
    if (cell.start_ns < start_ns) continue;
    strip.cells.push_back({.start_ns = cell.start_ns,
                           .end_ns = cell.start_ns + period_ns,
                           .periods = 1,
                           .throttled_ns = cell.throttled_ns,
                           .throttled = cell.throttled});
  }
  if (strip.cells.empty()) return {};
  return strip;
}

char strip_char(const StripCell& cell, int64_t period_ns) {
  if (!cell.throttled) return '.';
  const double share =
      period_ns > 0 && cell.periods > 0
          ? static_cast<double>(cell.throttled_ns) / (static_cast<double>(period_ns) * cell.periods)
          : 0;
  if (share >= 0.95) return '#';
  const int tenths = std::clamp(static_cast<int>(std::lround(share * 10)), 1, 9);
  return static_cast<char>('0' + tenths);
}

std::string strip_text(const ContainerStrip& strip) {
  std::string text;
  for (const StripCell& cell : strip.cells) text += strip_char(cell, strip.period_ns);
  return text;
}

std::string strip_summary(const ContainerStrip& strip) {
  size_t throttled = 0;
  uint64_t periods = 0;
  double most_ms = 0;
  for (const StripCell& cell : strip.cells) {
    periods += cell.periods;
    if (!cell.throttled) continue;
    ++throttled;
    most_ms = std::max(most_ms, static_cast<double>(cell.throttled_ns) / 1e6 / cell.periods);
  }
  const std::string cells = std::to_string(strip.cells.size());
  std::string text = strip.source == StripSource::cpu_stat
                         ? std::to_string(throttled) + " of " + cells + " reads (" +
                               std::to_string(periods) + " periods) throttled"
                         : std::to_string(throttled) + " of " + cells + " periods throttled";
  if (throttled == 0) return text;
  char most[48];
  std::snprintf(most, sizeof most, ", %.0fms at most in one", most_ms);
  return text + most;
}

}  // namespace flightrec::container
