#include "flightrec/incidents/stored_file.h"

#include <cerrno>
#include <system_error>

#include "flightrec/incidents/incident_id.h"

namespace flightrec::incidents {
namespace {

dump::StoredFile answer(int status, std::string error) {
  dump::StoredFile stored;
  stored.status = status;
  stored.error = std::move(error);
  return stored;
}

dump::StoredFile no_longer_stored(const std::string& id) {
  return answer(404, "incident " + id + " is no longer stored");
}

}  // namespace

dump::StoredFile open_stored_file(const IncidentStore& store, std::string_view id) {
  namespace fs = std::filesystem;
  if (!is_valid_incident_id(id)) {
    return answer(400, "invalid incident id: ids are 1 to 128 of [A-Za-z0-9_.-]");
  }
  const std::string name(id);  // valid ids are printable ASCII: safe to echo as they are
  const auto entry = store.find(id);
  if (!entry) return answer(404, "no incident " + name);
  if (entry->status == IncidentStatus::verifying) {
    return answer(503, "incident " + name +
                           " is not verified yet (the start-up scan is reading the stored "
                           "incidents); try again shortly");
  }
  const auto path = store.file_of(id);
  if (!path) return answer(404, "incident " + name + " was not written: " + entry->error);

  std::error_code error;
  // The entry itself: a symbolic link put in a verified file's place is not followed.
  const fs::file_status status = fs::symlink_status(*path, error);
  if (status.type() == fs::file_type::not_found) return no_longer_stored(name);
  if (error) {
    return answer(500, "incident " + name + ": " + path->string() + ": " + error.message());
  }
  if (!fs::is_regular_file(status)) {
    return answer(500, "incident " + name + ": " + path->string() + " is not a regular file");
  }
  dump::StoredFile stored;
  stored.path = *path;
  stored.file.open(*path, std::ios::binary);
  if (!stored.file) {
    const int open_errno = errno;
    // Deleted by retention (or by hand) between the check above and the open.
    if (open_errno == ENOENT) return no_longer_stored(name);
    return answer(500, "incident " + name + ": " + path->string() +
                           ": cannot open: " + std::generic_category().message(open_errno));
  }
  // The size of what was opened, not of whatever the path names by now.
  stored.file.seekg(0, std::ios::end);
  stored.bytes = static_cast<uint64_t>(stored.file.tellg());
  stored.file.seekg(0);
  return stored;
}

}  // namespace flightrec::incidents
