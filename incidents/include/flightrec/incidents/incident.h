#pragma once
// One incident as the index knows it: its description (what fired or who asked and why, when,
// which stretch of data it holds) and whether its file made it to disk (docs/INCIDENTS.md).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/common/enum_names.h"
#include "flightrec/model/incident_description.h"

namespace flightrec::incidents {

// verifying: found on disk at start-up and not checked yet (only id and bytes are known).
// unreadable: found on disk at start-up, and the scan could not read it (e.g. a file of another
// user, mode 0600): kept as it is, its description unknown until a restart can read it.
enum class IncidentStatus : uint8_t { written, failed, verifying, unreadable };
// The names /incidents' JSON gives.
inline constexpr EnumName<IncidentStatus> kIncidentStatusNames[] = {
    {IncidentStatus::written, "written"},
    {IncidentStatus::failed, "failed"},
    {IncidentStatus::verifying, "verifying"},
    {IncidentStatus::unreadable, "unreadable"}};
static_assert(names_are_distinct(kIncidentStatusNames));

// Why a write failed. Each cause has its own counter and is logged once per episode.
enum class FailureCause : uint8_t { no_space, read_only, permission, other };
// The names of the `cause` label and /incidents' JSON, in the enum's order: a loop over the rows
// visits every cause, and the table's size is the count arrays indexed by cause take.
inline constexpr EnumName<FailureCause> kFailureCauseNames[] = {
    {FailureCause::no_space, "no_space"},
    {FailureCause::read_only, "read_only"},
    {FailureCause::permission, "permission"},
    {FailureCause::other, "other"}};
static_assert(names_are_distinct(kFailureCauseNames) && rows_follow_values(kFailureCauseNames));
inline constexpr size_t kFailureCauseCount = std::size(kFailureCauseNames);

[[nodiscard]] constexpr std::string_view status_name(IncidentStatus status) {
  return name_of(kIncidentStatusNames, status);
}
[[nodiscard]] constexpr std::string_view cause_name(FailureCause cause) {
  return name_of(kFailureCauseNames, cause);
}

// The cause behind an errno value (ENOSPC and EDQUOT are no_space, EROFS read_only, EACCES and
// EPERM permission).
FailureCause cause_of_errno(int error);
// The cause behind an error message that ends with strerror(errno), as the atomic writers report.
FailureCause cause_of_message(std::string_view message);

// Not a Result: a failed or unreadable incident stays in the index, listed with its error.
struct IncidentEntry {
  std::string id;  // also the file name without ".flightrec"
  // Stored in the file's metadata (model::encode_incident), so that a scan after a restart
  // rebuilds the same index.
  model::IncidentDescription incident;
  uint64_t bytes = 0;  // size on disk; 0 when failed
  IncidentStatus status = IncidentStatus::written;
  std::optional<FailureCause> cause;  // failed only
  // failed: what went wrong, naming the path; unreadable: the path, what failed, the errno text.
  std::string error;
};

}  // namespace flightrec::incidents
