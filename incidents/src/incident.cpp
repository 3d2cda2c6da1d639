#include "flightrec/incidents/incident.h"

#include <cerrno>
#include <cstring>

namespace flightrec::incidents {

std::string_view status_name(IncidentStatus status) {
  switch (status) {
    case IncidentStatus::written:
      return "written";
    case IncidentStatus::failed:
      return "failed";
    case IncidentStatus::verifying:
      return "verifying";
    case IncidentStatus::unreadable:
      return "unreadable";
  }
  return "failed";
}

std::string_view cause_name(FailureCause cause) {
  switch (cause) {
    case FailureCause::no_space:
      return "no_space";
    case FailureCause::read_only:
      return "read_only";
    case FailureCause::permission:
      return "permission";
    case FailureCause::other:
      return "other";
  }
  return "other";
}

FailureCause cause_of_errno(int error) {
  switch (error) {
    case ENOSPC:
    case EDQUOT:
      return FailureCause::no_space;
    case EROFS:
      return FailureCause::read_only;
    case EACCES:
    case EPERM:
      return FailureCause::permission;
    default:
      return FailureCause::other;
  }
}

FailureCause cause_of_message(std::string_view message) {
  // The writers' errors end with strerror(errno), made in this process with the same locale.
  for (const int error : {ENOSPC, EDQUOT, EROFS, EACCES, EPERM}) {
    if (message.ends_with(std::strerror(error))) return cause_of_errno(error);
  }
  return FailureCause::other;
}

}  // namespace flightrec::incidents
