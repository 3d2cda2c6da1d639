#include "flightrec/viewer/oom_kill_mark.h"

namespace flightrec::viewer {

std::optional<OomKillMark> oom_kill_mark(const model::IncidentDescription& incident) {
  model::OomKillDetails kill = model::oom_kill_details(incident);
  if (kill.killed_at_ns == 0) return std::nullopt;
  OomKillMark mark{.killed_at_ns = kill.killed_at_ns,
                   .top_rss_at_ns = kill.top_rss_at_ns,
                   .top_rss = std::move(kill.top_rss)};
  if (kill.victim_pid > 0)
    mark.victim = std::to_string(kill.victim_pid) + " " + kill.victim_command;
  return mark;
}

}  // namespace flightrec::viewer
