#include "flightrec/incidents/incident_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ext/stdio_filebuf.h>
#include <istream>
#include <system_error>

#include "flightrec/common/atomic_file.h"
#include "flightrec/incidents/incident_id.h"
#include "flightrec/recording/recording_file.h"

namespace flightrec::incidents {
namespace {

namespace fs = std::filesystem;

// A file that could not be read is not judged: ENOENT means it went away, anything else that it is
// unreadable for now (permissions, EMFILE, EIO), and "<what>: <errno text>" says which.
void not_read(FileCheck& check, std::string_view what, const std::error_code& error) {
  check.state =
      error == std::errc::no_such_file_or_directory ? FileState::gone : FileState::unreadable;
  check.error = std::string(what) + ": " + error.message();
}

// libstdc++'s filebuf throws a failed read(2) with its errno as the code.
std::error_code read_error_of(const std::ios_base::failure& failure) {
  const std::error_code& code = failure.code();
  if (code.category() == std::system_category() || code.category() == std::generic_category()) {
    return code;
  }
  return std::make_error_code(std::errc::io_error);
}

void read_through(std::istream& in, FileCheck& check, const std::atomic<bool>* cancel) {
  recording::RecordingReader reader(in);
  int64_t first_ns = 0;
  int64_t last_ns = 0;
  bool any_block = false;
  if (reader.open()) {
    while (const auto block = reader.next()) {
      if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
        check.state = FileState::cancelled;
        check.error = "check cancelled";
        return;
      }
      if (!any_block) first_ns = block->real_ns(block->first_tick());
      last_ns = block->real_ns(block->last_tick());
      any_block = true;
    }
  }
  if (!reader.complete()) {
    check.state = FileState::corrupt;
    check.error = reader.error();
    return;
  }
  check.incident = model::decode_incident(reader.metadata()).value_or(model::IncidentDescription{});
  if (check.incident.window_from_ns == 0 && check.incident.window_to_ns == 0 && any_block) {
    check.incident.window_from_ns = first_ns;
    check.incident.window_to_ns = last_ns;
  }
}

struct FileTypeText {
  fs::file_type type;
  std::string_view text;
};
// What an entry named like an incident is instead of a regular file; both kinds of device read
// the same.
constexpr FileTypeText kNotRegular[] = {
    {fs::file_type::symlink, "a symbolic link, not a regular file"},
    {fs::file_type::directory, "a directory, not a regular file"},
    {fs::file_type::fifo, "a FIFO, not a regular file"},
    {fs::file_type::socket, "a socket, not a regular file"},
    {fs::file_type::block, "a device, not a regular file"},
    {fs::file_type::character, "a device, not a regular file"}};

std::string not_regular_reason(fs::file_type type) {
  for (const FileTypeText& row : kNotRegular) {
    if (row.type == type) return std::string(row.text);
  }
  return "not a regular file";
}

// One of ours: a regular file (not a link, not a directory) named as AtomicFile names the
// temporary of an incident file. Only those may be swept.
bool is_incident_temporary(const fs::directory_entry& item, std::string_view name) {
  const auto target = atomic_temporary_target(name);
  if (!target || !target->ends_with(kIncidentExtension)) return false;
  if (!is_valid_incident_id(target->substr(0, target->size() - kIncidentExtension.size()))) {
    return false;
  }
  std::error_code ec;
  return item.symlink_status(ec).type() == fs::file_type::regular;
}

}  // namespace

FileCheck check_incident_file(const fs::path& path, const std::atomic<bool>* cancel) {
  FileCheck check;
  // The daemon often runs as root: a symbolic link named like an incident (O_NOFOLLOW) would have
  // it read, judge and serve whatever the link points to. O_NONBLOCK: a FIFO in a file's place does
  // not hold the open until a writer comes; it is then found not regular like the rest.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    if (error == ELOOP) {
      check.state = FileState::not_regular;
      check.error = not_regular_reason(fs::file_type::symlink);
      return check;
    }
    not_read(check, "cannot open", std::error_code(error, std::generic_category()));
    return check;
  }
  // Owns the fd once open. libstdc++'s own filebuf: a failed read throws as an ifstream's does.
  __gnu_cxx::stdio_filebuf<char> file(fd, std::ios::in | std::ios::binary);
  if (!file.is_open()) {  // fdopen failed (out of memory): the fd is still ours to close
    const int error = errno;
    ::close(fd);
    not_read(check, "cannot open", std::error_code(error, std::generic_category()));
    return check;
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    not_read(check, "cannot stat", std::error_code(errno, std::generic_category()));
    return check;
  }
  if (!S_ISREG(info.st_mode)) {
    check.state = FileState::not_regular;
    check.error = not_regular_reason(S_ISDIR(info.st_mode)    ? fs::file_type::directory
                                     : S_ISFIFO(info.st_mode) ? fs::file_type::fifo
                                                              : fs::file_type::unknown);
    return check;
  }
  check.bytes = static_cast<uint64_t>(info.st_size);
  std::istream in(&file);
  // A failed read (EIO) then throws with its errno, rather than looking like the file's end.
  in.exceptions(std::ios::badbit);
  try {
    read_through(in, check, cancel);
  } catch (const std::ios_base::failure& failure) {
    check.incident = {};
    not_read(check, "cannot read", read_error_of(failure));
  }
  return check;
}

Result<DirectoryListing> list_incident_directory(const fs::path& dir) {
  DirectoryListing listing;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const fs::directory_entry& item = *it;
    const std::string name = item.path().filename().string();
    if (is_incident_temporary(item, name)) {
      listing.temporaries.push_back(item.path());
      continue;
    }
    if (!name.ends_with(kIncidentExtension)) continue;
    // The entry itself, not what a symbolic link points to.
    std::error_code type_error;
    const fs::file_type type = item.symlink_status(type_error).type();
    if (type_error) continue;  // gone since it was listed
    if (type != fs::file_type::regular) {
      listing.skipped.push_back({.path = item.path(), .error = not_regular_reason(type)});
      continue;
    }
    std::string id = name.substr(0, name.size() - kIncidentExtension.size());
    if (!is_valid_incident_id(id)) {
      listing.ignored.push_back(item.path());
      continue;
    }
    std::error_code size_error;
    const uint64_t bytes = item.file_size(size_error);
    listing.incidents.push_back(
        {.id = std::move(id), .path = item.path(), .bytes = size_error ? 0 : bytes});
  }
  if (ec) return Error{dir.string() + ": cannot read the directory: " + ec.message()};
  std::sort(listing.incidents.begin(), listing.incidents.end(),
            [](const StoredName& a, const StoredName& b) { return a.id < b.id; });
  return listing;
}

DirectoryScan check_listed_files(DirectoryListing listing) {
  DirectoryScan scan{.temporaries = std::move(listing.temporaries),
                     .ignored = std::move(listing.ignored),
                     .skipped = std::move(listing.skipped)};
  for (auto& stored : listing.incidents) {
    FileCheck check = check_incident_file(stored.path);
    switch (check.state) {
      case FileState::valid:
        scan.valid.push_back({.id = std::move(stored.id),
                              .incident = std::move(check.incident),
                              .bytes = check.bytes});
        break;
      case FileState::gone:
        scan.gone.push_back(std::move(stored.path));
        break;
      case FileState::unreadable:
        scan.unreadable.push_back(
            {.path = std::move(stored.path), .error = std::move(check.error)});
        break;
      case FileState::not_regular:  // replaced since it was listed
        scan.skipped.push_back({.path = std::move(stored.path), .error = std::move(check.error)});
        break;
      case FileState::corrupt:
      case FileState::cancelled:  // never without a cancel flag
        scan.bad.push_back({.path = std::move(stored.path), .error = std::move(check.error)});
        break;
    }
  }
  return scan;
}

Result<DirectoryScan> scan_incident_directory(const fs::path& dir) {
  auto listing = list_incident_directory(dir);
  if (!listing) return Error{std::move(listing).error()};
  return check_listed_files(*std::move(listing));
}

}  // namespace flightrec::incidents
