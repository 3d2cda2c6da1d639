#pragma once
// What an incident is about: which rule fired (or who asked, and why), on which series, with what
// value, and the stretch of recording it covers. The trigger makes one when a rule fires or a
// manual request arrives; the incident file carries it in its metadata as "incident.*" extras
// (docs/RECORDING_FORMAT.md), and /incidents, `flightrec incidents`, the viewer and replay read it
// back through decode_incident. One codec, so every reader agrees on the keys.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/common/enum_names.h"
#include "flightrec/model/incident_kind.h"
#include "flightrec/recording/metadata.h"

namespace flightrec::model {

// The rule name of incidents asked for with POST /-/trigger.
inline constexpr std::string_view kManualRule = "manual";

// Keys of IncidentDescription::details that readers show specially: an OOM kill's victim, named
// from the kernel log or the eBPF exit report (trigger/oom_victim_sources.h).
namespace incident_details {
inline constexpr std::string_view kOomVictimPid = "oom.victim_pid";
inline constexpr std::string_view kOomVictimCommand = "oom.victim_command";
inline constexpr std::string_view kOomVictimCgroup = "oom.victim_cgroup";
inline constexpr std::string_view kOomVictimRssBytes = "oom.victim_rss_bytes";  // kernel log
inline constexpr std::string_view kOomVictimExitPeakRssBytes = "oom.victim_exit_peak_rss_bytes";
// "kernel_log", "ebpf_exit" or "kernel_log+ebpf_exit": which sources named the victim.
inline constexpr std::string_view kOomVictimSource = "oom.victim_source";
// Set instead of the above when no source named the victim: "unknown: " and why.
inline constexpr std::string_view kOomVictimUnknown = "oom.victim";
// The container the OOM victim ran in, from the container tier's names of its memory cgroup.
inline constexpr std::string_view kOomNamespace = "oom.namespace";
inline constexpr std::string_view kOomPod = "oom.pod";
inline constexpr std::string_view kOomContainer = "oom.container";
inline constexpr std::string_view kOomContainerId = "oom.container_id";
// A container rule's container (kind container): its runtime id (the processes' container id,
// which readers filter the process frames by), cgroup path and names.
inline constexpr std::string_view kContainerId = "container.id";
inline constexpr std::string_view kContainerCgroup = "container.cgroup";
inline constexpr std::string_view kContainerNamespace = "container.namespace";
inline constexpr std::string_view kContainerPod = "container.pod";
inline constexpr std::string_view kContainerName = "container.container";
inline constexpr std::string_view kContainerImage = "container.image";
}  // namespace incident_details

// Which sources named an OOM kill's victim, and incident_details::kOomVictimSource's value for
// each.
enum class OomVictimSource : uint8_t { kernel_log, ebpf_exit, both };
inline constexpr EnumName<OomVictimSource> kOomVictimSourceNames[] = {
    {OomVictimSource::kernel_log, "kernel_log"},
    {OomVictimSource::ebpf_exit, "ebpf_exit"},
    {OomVictimSource::both, "kernel_log+ebpf_exit"}};
static_assert(names_are_distinct(kOomVictimSourceNames));

struct IncidentDescription {
  IncidentKind kind = IncidentKind::rule;  // what started it; its producer sets it
  // The rule's name from the config; "manual" and "alert" for those kinds (the config reserves
  // both), "oom_kill" for the built-in rule or a configured one that replaces it.
  std::string rule;
  std::string condition;  // the rule as configured, e.g. cpu_busy_ratio{cpu="total"} > 0.8
  // The matched series' value when the rule fired; NaN when nothing was measured (manual).
  double value = std::numeric_limits<double>::quiet_NaN();
  std::string series;       // the series that held, e.g. cpu_busy_ratio{cpu="3"}
  std::string reason;       // a manual request's reason (user text: escape it where shown)
  int64_t fired_at_ns = 0;  // Unix ns
  // [fired - pre, fired + post] in Unix ns; `from` may precede the oldest recorded frame.
  int64_t window_from_ns = 0;
  int64_t window_to_ns = 0;
  // What else is known about the event, as key/value text, in the order found: e.g. an OOM
  // kill's victim (incident_details). Empty for most incidents.
  recording::Labels details;
  // Asked for with POST /-/trigger rather than fired by a rule or an alert.
  [[nodiscard]] bool is_manual() const noexcept { return kind == IncidentKind::manual; }
  bool operator==(const IncidentDescription&) const = default;
};

// Appends the description as "incident.*" pairs to `extra` (recording::Metadata::extra).
void encode_incident(const IncidentDescription& incident, recording::Labels& extra);

// Replaces the "incident.*" pairs of `extra` with `incident`'s, keeping every other pair in place
// (a stored incident given a new description: the configuration and sampler notes stay).
void replace_incident(const IncidentDescription& incident, recording::Labels& extra);

// The description encode_incident wrote; nullopt when the metadata has no "incident.*" pair (a
// plain dump). A pair that is missing (files written before condition and reason were stored) or
// whose number does not parse leaves its field at the default; a kind that is missing (files
// written before it was stored) or not known here is inferred_kind's.
std::optional<IncidentDescription> decode_incident(const recording::Metadata& metadata);

}  // namespace flightrec::model
