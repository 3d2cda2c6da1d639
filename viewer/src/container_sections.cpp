#include "flightrec/viewer/container_sections.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "flightrec/container/frame/display_name.h"

namespace flightrec::viewer {
namespace {

using container::ContainerFrame;
using container::ContainerRow;
using container::kAbsent;

// A counter's growth from `before` to `now`; 0 when either is missing or it went back.
int64_t growth(int64_t before, int64_t now) {
  if (before == kAbsent || now == kAbsent || now < before) return 0;
  return now - before;
}

// One container (a cgroup path and id: a container made again under the path is another) over
// the window.
struct Track {
  const ContainerRow* first = nullptr;
  const ContainerRow* last = nullptr;
  int64_t first_ns = 0;
  int64_t last_ns = 0;
  bool episodes = false;
  double peak_memory = 0;
  ContainerSection section;
};

double mean_cpu(const Track& track) {
  const int64_t usage = growth(track.first->stats.cpu.usage_us, track.last->stats.cpu.usage_us);
  const int64_t span = track.last_ns - track.first_ns;
  return span > 0 ? static_cast<double>(usage) * 1e3 / static_cast<double>(span) : 0;
}

void add_point(Track& track, const ContainerRow& row, int64_t time_ns) {
  ContainerSection& s = track.section;
  std::optional<double> cpu;
  if (track.last != nullptr && time_ns > track.last_ns) {
    const auto& before = track.last->stats.cpu.usage_us;
    const auto& now = row.stats.cpu.usage_us;
    if (before != kAbsent && now != kAbsent && now >= before) {
      cpu = static_cast<double>(now - before) * 1e3 / static_cast<double>(time_ns - track.last_ns);
    }
  }
  s.times_ns.push_back(time_ns);
  s.memory_bytes.push_back(container::read_value(row.stats.memory.usage_bytes));
  s.cpu_cores.push_back(cpu);
  if (s.memory_bytes.back())
    track.peak_memory = std::max(track.peak_memory, *s.memory_bytes.back());
  if (track.first == nullptr) {
    track.first = &row;
    track.first_ns = time_ns;
  }
  track.last = &row;
  track.last_ns = time_ns;
}

// What the first and last reads say: limits as they were last, counters' growth over the window.
void summarise(Track& track) {
  ContainerSection& s = track.section;
  const ContainerRow& last = *track.last;
  const auto& first_stats = track.first->stats;
  const auto& stats = last.stats;
  s.name = container::display_name(last);
  s.path = last.path;
  s.id = last.id;
  s.image = last.image;
  if (const auto quota = container::set_limit(stats.bandwidth.quota_us);
      quota && stats.bandwidth.period_us > 0) {
    s.quota_cores = *quota / static_cast<double>(stats.bandwidth.period_us);
  }
  if (stats.bandwidth.period_us != kAbsent) s.period_ns = stats.bandwidth.period_us * 1000;
  s.memory_limit_bytes = container::set_limit(stats.memory.limit_bytes);
  s.memory_high_bytes = container::set_limit(stats.memory.high_bytes);
  s.throttled_periods = growth(first_stats.cpu.throttled_periods, stats.cpu.throttled_periods);
  s.periods = growth(first_stats.cpu.periods, stats.cpu.periods);
  s.events_high = growth(first_stats.memory.events.high, stats.memory.events.high);
  s.events_max = growth(first_stats.memory.events.max, stats.memory.events.max);
  s.events_oom_kill = growth(first_stats.memory.events.oom_kill, stats.memory.events.oom_kill);
}

// Marks the top `count` tracks by `key` (above 0) with `reason`.
template <typename Key>
void mark_top(std::vector<Track*>& tracks, Key key, const char* reason) {
  std::stable_sort(tracks.begin(), tracks.end(),
                   [&](const Track* a, const Track* b) { return key(*a) > key(*b); });
  for (size_t i = 0; i < tracks.size() && i < kTopContainers; ++i) {
    if (key(*tracks[i]) > 0) tracks[i]->section.reasons.emplace_back(reason);
  }
}

}  // namespace

std::vector<ContainerSection> container_sections(const std::vector<ContainerFrame>& frames,
                                                 store::TimeRange range, size_t max_sections) {
  std::map<std::pair<std::string, std::string>, Track> by_container;
  for (const ContainerFrame& frame : frames) {
    if (!range.contains(frame.time_unix_ns)) continue;
    for (const ContainerRow& row : frame.containers) {
      add_point(by_container[{row.path, row.id}], row, frame.time_unix_ns);
    }
    for (const auto& episode : frame.episodes) {
      const ContainerRow* row = container::find_by_cgroup_id(frame, episode.cgroup_id);
      if (row != nullptr) by_container[{row->path, row->id}].episodes = true;
    }
  }
  std::vector<Track*> tracks;
  for (auto& [key, track] : by_container) {
    if (track.first == nullptr) continue;  // episodes of a container outside the window
    summarise(track);
    const ContainerSection& s = track.section;
    if (s.throttled_periods > 0 || track.episodes) track.section.reasons.emplace_back("throttled");
    if (s.events_high + s.events_max + s.events_oom_kill > 0) {
      track.section.reasons.emplace_back("memory events");
    }
    tracks.push_back(&track);
  }
  mark_top(tracks, mean_cpu, "top CPU");
  mark_top(
      tracks, [](const Track& t) { return t.peak_memory; }, "top memory");
  const bool few = tracks.size() <= kAllContainersUpTo;
  // Throttled first, the most throttled periods first; then memory events; then the busiest.
  const auto rank = [](const Track* t) {
    const ContainerSection& s = t->section;
    const bool throttled = !s.reasons.empty() && s.reasons.front() == "throttled";
    return std::make_tuple(throttled, s.throttled_periods,
                           s.events_high + s.events_max + s.events_oom_kill, mean_cpu(*t));
  };
  std::stable_sort(tracks.begin(), tracks.end(),
                   [&](const Track* a, const Track* b) { return rank(a) > rank(b); });
  std::vector<ContainerSection> sections;
  for (Track* track : tracks) {
    if (sections.size() == max_sections) break;
    if (few && track->section.reasons.empty())
      track->section.reasons.emplace_back("few containers");
    if (track->section.reasons.empty()) continue;
    ContainerSection section = std::move(track->section);
    if (section.period_ns > 0) {
      const auto periods = (track->last_ns - track->first_ns) / section.period_ns + 1;
      section.strip = container::container_strip(
          frames, section.path, track->last_ns,
          std::min<size_t>(static_cast<size_t>(periods), kMaxStripCells));
    }
    sections.push_back(std::move(section));
  }
  return sections;
}

}  // namespace flightrec::viewer
