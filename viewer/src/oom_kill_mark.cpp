#include "flightrec/viewer/oom_kill_mark.h"

#include <charconv>
#include <string_view>

namespace flightrec::viewer {
namespace {

std::optional<int64_t> unix_ns(std::string_view text) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || value <= 0) return std::nullopt;
  return value;
}

}  // namespace

std::optional<OomKillMark> oom_kill_mark(const model::IncidentDescription& incident) {
  namespace keys = model::oom_detail_keys;
  namespace victim_keys = model::incident_details;
  OomKillMark mark;
  std::string pid;
  std::string command;
  for (const auto& [key, text] : incident.details) {
    if (key == keys::kKilledAtNs) mark.killed_at_ns = unix_ns(text).value_or(0);
    if (key == keys::kTopRssAtNs) mark.top_rss_at_ns = unix_ns(text).value_or(0);
    if (key == victim_keys::kOomVictimPid) pid = text;
    if (key == victim_keys::kOomVictimCommand) command = text;
    if (std::string_view(key).starts_with(keys::kTopRssPrefix)) {
      if (auto process = model::parse_resident(text)) mark.top_rss.push_back(std::move(*process));
    }
  }
  if (mark.killed_at_ns == 0) return std::nullopt;
  if (!pid.empty()) mark.victim = pid + " " + command;
  return mark;
}

}  // namespace flightrec::viewer
