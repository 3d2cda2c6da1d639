#pragma once
// Incident ids: "<UTC time to the ms>-<rule>", e.g. "20261130T052811.123Z-cpu_busy", so that
// sorting ids sorts incidents by time. An id is also a file name, so its charset is strict.
#include <cstdint>
#include <string>
#include <string_view>

namespace flightrec::incidents {

inline constexpr size_t kMaxIdLength = 128;
inline constexpr size_t kMaxRulePartLength = 64;
inline constexpr std::string_view kIncidentExtension = ".flightrec";

// The id for an incident fired at `fired_at_ns`: characters of the rule outside [A-Za-z0-9_-]
// become '_', and it is cut to kMaxRulePartLength. `attempt` > 1 appends "-<attempt>" (two
// incidents in one millisecond).
std::string make_incident_id(int64_t fired_at_ns, std::string_view rule, int attempt = 1);

// True for 1..kMaxIdLength characters of [A-Za-z0-9_.-] starting with a letter or digit: nothing
// that could name another directory, whatever the URL said.
bool is_valid_incident_id(std::string_view id);

}  // namespace flightrec::incidents
