// Each group's episodes from its CPUs' span reports.
#include "flightrec/container/throttle/episode_assembler.h"

#include <algorithm>
#include <set>

namespace flightrec::container {

namespace {

// A group's queue on one CPU is in one throttle at a time, and each CPU reports its end before a
// next begin.
bool same_queue(const ThrottleSpan& a, const ThrottleSpan& b) { return a.cpu == b.cpu; }

// Spans that belong to one episode, in order of start.
struct Cluster {
  size_t first = 0;  // index into the sorted closed spans
  size_t count = 0;
  int64_t end_ns = 0;
  int64_t last_period_end_ns = 0;  // the period of the latest span to begin
};

// A span joins the episode before it when it began before that one ended (the group was still
// throttled on some CPU) or in the same period (the group ran out of quota once, on several CPUs
// at different moments).
bool joins(const ThrottleSpan& span, const Cluster& cluster) {
  return span.start_ns <= cluster.end_ns || span.period_end_ns == cluster.last_period_end_ns;
}

ThrottleEpisode episode_of(std::span<const ThrottleSpan> spans) {
  ThrottleEpisode episode;
  const ThrottleSpan& first = spans.front();
  episode.cgroup_id = first.cgroup_id;
  episode.start_ns = first.start_ns;
  episode.end_ns = first.end_ns;
  episode.period_ns = first.period_ns;
  episode.quota_ns = first.quota_ns;
  episode.period_end_ns = first.period_end_ns;
  episode.end_exact = true;
  std::set<uint32_t> cpus;
  // Every span of a group is timed against the group's one period timer, so one grid counts the
  // refills; over the union of the spans, so a refill several CPUs waited for counts once.
  const PeriodGrid grid{first.period_ns, first.period_end_ns};
  int64_t union_start = first.start_ns;
  int64_t union_end = first.start_ns;
  for (const ThrottleSpan& span : spans) {
    episode.end_ns = std::max(episode.end_ns, span.end_ns);
    episode.period_end_ns = std::min(episode.period_end_ns, span.period_end_ns);
    episode.throttled_ns += counted_ns(span);
    episode.end_exact = episode.end_exact && span.end_exact;
    cpus.insert(span.cpu);
    if (span.start_ns > union_end) {
      episode.refills += refills_within(union_start, union_end, grid);
      union_start = span.start_ns;
    }
    union_end = std::max(union_end, span.end_ns);
  }
  episode.refills += refills_within(union_start, union_end, grid);
  episode.cpus = static_cast<uint32_t>(cpus.size());
  episode.spans = static_cast<uint32_t>(spans.size());
  return episode;
}

}  // namespace

void EpisodeAssembler::began(const ThrottleSpan& span) {
  std::vector<ThrottleSpan>& open = groups_[span.cgroup_id].open;
  // One still open on that CPU lost its end report.
  abandoned_ +=
      std::erase_if(open, [&](const ThrottleSpan& other) { return same_queue(other, span); });
  open.push_back(span);
}

void EpisodeAssembler::ended(const ThrottleSpan& span) {
  Group& group = groups_[span.cgroup_id];
  std::erase_if(group.open, [&](const ThrottleSpan& other) { return same_queue(other, span); });
  group.closed.push_back(span);
}

void EpisodeAssembler::take_settled(int64_t now_ns, std::vector<ThrottleEpisode>& out) {
  for (auto it = groups_.begin(); it != groups_.end();) {
    take_settled(it->second, now_ns, out);
    if (it->second.open.empty() && it->second.closed.empty()) {
      it = groups_.erase(it);
    } else {
      ++it;
    }
  }
}

void EpisodeAssembler::take_settled(Group& group, int64_t now_ns,
                                    std::vector<ThrottleEpisode>& out) {
  abandoned_ += std::erase_if(group.open, [&](const ThrottleSpan& span) {
    return now_ns - span.start_ns > settings_.abandon_ns;
  });
  std::sort(group.closed.begin(), group.closed.end(),
            [](const ThrottleSpan& a, const ThrottleSpan& b) { return a.start_ns < b.start_ns; });

  std::vector<Cluster> clusters;
  for (size_t i = 0; i < group.closed.size(); ++i) {
    const ThrottleSpan& span = group.closed[i];
    if (clusters.empty() || !joins(span, clusters.back())) {
      clusters.push_back({.first = i, .end_ns = span.end_ns});
    }
    Cluster& cluster = clusters.back();
    ++cluster.count;
    cluster.end_ns = std::max(cluster.end_ns, span.end_ns);
    cluster.last_period_end_ns = span.period_end_ns;
  }

  size_t handed_out = 0;  // spans, from the front of the sorted list
  for (const Cluster& cluster : clusters) {
    // Oldest first: an episode held back holds back the ones after it.
    if (now_ns - cluster.end_ns < settings_.settle_ns) break;
    if (std::any_of(group.open.begin(), group.open.end(),
                    [&](const ThrottleSpan& span) { return joins(span, cluster); })) {
      break;
    }
    const ThrottleEpisode episode =
        episode_of(std::span(group.closed).subspan(cluster.first, cluster.count));
    ThrottleTotals& totals = totals_[episode.cgroup_id];
    ++totals.episodes;
    totals.spans += episode.spans;
    totals.throttled_ns += episode.throttled_ns;
    totals.refills += episode.refills;
    out.push_back(episode);
    handed_out += cluster.count;
  }
  group.closed.erase(group.closed.begin(),
                     group.closed.begin() + static_cast<std::ptrdiff_t>(handed_out));
}

std::vector<ThrottleSpan> EpisodeAssembler::open_spans() const {
  std::vector<ThrottleSpan> spans;
  for (const auto& [id, group] : groups_) {
    const size_t first = spans.size();
    spans.insert(spans.end(), group.open.begin(), group.open.end());
    std::sort(spans.begin() + static_cast<std::ptrdiff_t>(first), spans.end(),
              [](const ThrottleSpan& a, const ThrottleSpan& b) { return a.start_ns < b.start_ns; });
  }
  return spans;
}

}  // namespace flightrec::container
