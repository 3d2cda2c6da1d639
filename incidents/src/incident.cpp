#include "flightrec/incidents/incident.h"

#include <cerrno>
#include <cstring>

namespace flightrec::incidents {

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
