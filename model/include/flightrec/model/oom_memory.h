#pragma once
// What the process frames say about memory at an OOM kill: the biggest resident sets on the last
// process frame at or before the kill, and the victim's resident set over the frames before it
// (its last recorded value and its peak). The OOM victim namer (trigger/oom_victims.h) stores
// them as "oom.*" details of the incident; the viewer and replay read them back from there.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/model/incident_description.h"
#include "flightrec/process/process_frame.h"

namespace flightrec::model {

// Detail keys for the kill's moment and the memory summary (docs/INCIDENTS.md, "OOM kills").
namespace oom_detail_keys {
inline constexpr std::string_view kKilledAtNs = "oom.killed_at_ns";
// "oom.top_rss.1" .. "oom.top_rss.N", largest first: "pid=1234 rss_bytes=5678 comm=java".
inline constexpr std::string_view kTopRssPrefix = "oom.top_rss.";
inline constexpr std::string_view kTopRssAtNs = "oom.top_rss_at_ns";
inline constexpr std::string_view kVictimRssSamples = "oom.victim_rss_samples";
inline constexpr std::string_view kVictimLastRssBytes = "oom.victim_last_rss_bytes";
inline constexpr std::string_view kVictimLastRssAtNs = "oom.victim_last_rss_at_ns";
inline constexpr std::string_view kVictimPeakRssBytes = "oom.victim_peak_rss_bytes";
inline constexpr std::string_view kVictimPeakRssAtNs = "oom.victim_peak_rss_at_ns";
// Its command line (redacted as recorded) and container on the last frame that held it: neither
// the kernel log nor the exit report carries more than the 15-byte command name.
inline constexpr std::string_view kVictimCmdline = "oom.victim_cmdline";
inline constexpr std::string_view kVictimContainerId = "oom.victim_container_id";
// Set instead of the four victim keys above when no process frame holds the victim: why.
inline constexpr std::string_view kVictimRssCurve = "oom.victim_rss_curve";
}  // namespace oom_detail_keys

struct ResidentProcess {
  int32_t pid = 0;
  std::string comm;
  uint64_t rss_bytes = 0;
  bool operator==(const ResidentProcess&) const = default;
};

// The victim's resident set as the process frames recorded it, and who it was on the last of them.
struct VictimRss {
  size_t samples = 0;  // frames holding the victim with a resident set
  uint64_t last_bytes = 0;
  int64_t last_at_ns = 0;
  uint64_t peak_bytes = 0;
  int64_t peak_at_ns = 0;
  std::string cmdline;
  std::string container_id;
};

// Fed the process frames of an incident's window, oldest first; keeps only what it reports, so a
// window of thousands of frames costs one frame's top list at a time.
class OomMemoryScan {
 public:
  OomMemoryScan(int64_t killed_at_ns, int32_t victim_pid, size_t top_n)
      : killed_at_ns_(killed_at_ns), victim_pid_(victim_pid), top_n_(top_n) {}

  // False once a frame after the kill has been seen (the rest cannot matter).
  bool add(const process::ProcessFrame& frame);

  // The largest resident sets on the last frame at or before the kill (exited rows left out:
  // they no longer held memory then), largest first, ties to the lower pid; empty before any.
  [[nodiscard]] const std::vector<ResidentProcess>& top() const noexcept { return top_; }
  [[nodiscard]] int64_t top_at_ns() const noexcept { return top_at_ns_; }
  [[nodiscard]] const VictimRss& victim() const noexcept { return victim_; }

 private:
  int64_t killed_at_ns_;
  int32_t victim_pid_;
  size_t top_n_;
  std::vector<ResidentProcess> top_;
  int64_t top_at_ns_ = 0;
  VictimRss victim_;
};

// One "oom.top_rss.N" value, and back (nullopt when `text` is not one).
std::string format_resident(const ResidentProcess& process);
std::optional<ResidentProcess> parse_resident(std::string_view text);

// An OOM incident's kill as its "oom.*" details give it back (written by trigger/oom_victims.h):
// one reading for the viewer's mark and replay's focus. A value that does not parse is left at
// its default, as if absent.
struct OomKillDetails {
  bool any = false;          // the incident has an "oom.*" detail at all
  int64_t killed_at_ns = 0;  // 0: not known
  int32_t victim_pid = 0;    // 0: no source named a victim
  std::string victim_command;
  std::string victim_cgroup;                 // its memory cgroup ("" when not known)
  std::optional<uint64_t> victim_rss_bytes;  // the kernel log's report of its size when killed
  std::optional<uint64_t> victim_exit_peak_rss_bytes;  // the exit report's peak (maxrss)
  std::string victim_source;                           // "kernel_log", "ebpf_exit", or both
  std::string victim_unknown;                          // why no victim is named ("oom.victim")
  int64_t top_rss_at_ns = 0;
  std::vector<ResidentProcess> top_rss;  // largest first, as stored
};
OomKillDetails oom_kill_details(const IncidentDescription& incident);

}  // namespace flightrec::model
