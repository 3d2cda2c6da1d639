#include "flightrec/model/oom_memory.h"

#include <algorithm>

#include "flightrec/common/whole_number.h"

namespace flightrec::model {
namespace {

bool larger(const ResidentProcess& a, const ResidentProcess& b) {
  return a.rss_bytes != b.rss_bytes ? a.rss_bytes > b.rss_bytes : a.pid < b.pid;
}

template <typename Number>
std::optional<Number> number_after(std::string_view text, std::string_view prefix) {
  if (!text.starts_with(prefix)) return std::nullopt;
  return whole_number<Number>(text.substr(prefix.size()));
}

// A time or pid: only a positive one means anything.
template <typename Number>
Number positive_or_zero(std::string_view text) {
  const auto value = whole_number<Number>(text);
  return value && *value > 0 ? *value : 0;
}

}  // namespace

bool OomMemoryScan::add(const process::ProcessFrame& frame) {
  if (frame.time_unix_ns > killed_at_ns_) return false;
  // The kernel may have taken the victim's memory already on the frame that found it gone (an
  // exited row): only a row with a resident set is a sample of it.
  for (const auto& row : frame.processes) {
    if (row.pid != victim_pid_ || victim_pid_ == 0 || row.rss_bytes == 0) continue;
    ++victim_.samples;
    victim_.last_bytes = row.rss_bytes;
    victim_.last_at_ns = frame.time_unix_ns;
    victim_.cmdline = row.cmdline;
    victim_.container_id = row.container_id;
    if (row.rss_bytes >= victim_.peak_bytes) {
      victim_.peak_bytes = row.rss_bytes;
      victim_.peak_at_ns = frame.time_unix_ns;
    }
  }
  top_.clear();
  top_at_ns_ = frame.time_unix_ns;
  for (const auto& row : frame.processes) {
    if (row.exited || row.rss_bytes == 0) continue;
    const ResidentProcess candidate{.pid = row.pid, .comm = row.comm, .rss_bytes = row.rss_bytes};
    if (top_.size() == top_n_ && (top_n_ == 0 || !larger(candidate, top_.back()))) continue;
    top_.insert(std::upper_bound(top_.begin(), top_.end(), candidate, larger), candidate);
    if (top_.size() > top_n_) top_.pop_back();
  }
  return true;
}

std::string format_resident(const ResidentProcess& process) {
  // comm last: it may hold spaces, so it takes the rest of the value.
  return "pid=" + std::to_string(process.pid) + " rss_bytes=" + std::to_string(process.rss_bytes) +
         " comm=" + process.comm;
}

std::optional<ResidentProcess> parse_resident(std::string_view text) {
  const size_t first_space = text.find(' ');
  if (first_space == std::string_view::npos) return std::nullopt;
  const size_t second_space = text.find(' ', first_space + 1);
  if (second_space == std::string_view::npos) return std::nullopt;
  const auto pid = number_after<int32_t>(text.substr(0, first_space), "pid=");
  const auto rss = number_after<uint64_t>(
      text.substr(first_space + 1, second_space - first_space - 1), "rss_bytes=");
  const std::string_view comm = text.substr(second_space + 1);
  if (!pid || !rss || !comm.starts_with("comm=")) return std::nullopt;
  return ResidentProcess{.pid = *pid, .comm = std::string(comm.substr(5)), .rss_bytes = *rss};
}

OomKillDetails oom_kill_details(const IncidentDescription& incident) {
  namespace keys = oom_detail_keys;
  namespace victim_keys = incident_details;
  OomKillDetails kill;
  for (const auto& [key, text] : incident.details) {
    const std::string_view name = key;
    if (name.starts_with("oom.")) kill.any = true;
    if (name == keys::kKilledAtNs) kill.killed_at_ns = positive_or_zero<int64_t>(text);
    if (name == keys::kTopRssAtNs) kill.top_rss_at_ns = positive_or_zero<int64_t>(text);
    if (name == victim_keys::kOomVictimPid) kill.victim_pid = positive_or_zero<int32_t>(text);
    if (name == victim_keys::kOomVictimCommand) kill.victim_command = text;
    if (name == victim_keys::kOomVictimRssBytes)
      kill.victim_rss_bytes = whole_number<uint64_t>(text);
    if (name == victim_keys::kOomVictimExitPeakRssBytes) {
      kill.victim_exit_peak_rss_bytes = whole_number<uint64_t>(text);
    }
    if (name == victim_keys::kOomVictimCgroup) kill.victim_cgroup = text;
    if (name == victim_keys::kOomVictimSource) kill.victim_source = text;
    if (name == victim_keys::kOomVictimUnknown) kill.victim_unknown = text;
    if (name.starts_with(keys::kTopRssPrefix)) {
      if (auto process = parse_resident(text)) kill.top_rss.push_back(std::move(*process));
    }
  }
  return kill;
}

}  // namespace flightrec::model
