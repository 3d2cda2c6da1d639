#pragma once
// The incident file is a recording (flightrec/recording/recording_file.h) whose metadata carries
// the incident's description as "incident.*" extras (model/incident_description.h). This
// validates whole files and reads their descriptions back.
#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "flightrec/common/result.h"
#include "flightrec/incidents/incident.h"
#include "flightrec/recording/metadata.h"

namespace flightrec::incidents {

// What reading a stored file found. Only `corrupt` says anything about the file's content: a file
// that could not be read (permissions, too many open files, an I/O error) is not judged, one
// removed before it was opened is simply gone, and what is not a regular file (a symbolic link, a
// directory, a FIFO) is not an incident anyone wrote: it is neither followed nor read.
enum class FileState { valid, corrupt, unreadable, gone, not_regular, cancelled };

// Not a Result: callers act on which state it is, and a corrupt file's description (from what
// could be read) is still listed.
struct FileCheck {
  model::IncidentDescription incident;
  uint64_t bytes = 0;
  FileState state = FileState::valid;
  // Empty when valid; corrupt: the reader's error ("torn: ..."); unreadable and gone: what failed
  // and the errno text ("cannot open: Permission denied"); not_regular: what it is instead.
  std::string error;
  [[nodiscard]] bool ok() const noexcept { return state == FileState::valid; }
};

// Reads the whole file a block at a time (memory stays at one block), opened without following a
// symbolic link and read only when it is a regular file. A recording without incident
// fields gets its window from its first and last frames. When `cancel` turns true the check stops
// between blocks with state `cancelled` (the caller knows not to act on it).
FileCheck check_incident_file(const std::filesystem::path& path,
                              const std::atomic<bool>* cancel = nullptr);

// What a directory holds, without changing anything in it (safe while a daemon writes there).
struct BadFile {
  std::filesystem::path path;
  std::string error;  // the reader's, or what could not be read and why
};

// A directory's names and sizes, nothing read from inside the files: cheap whatever the files hold.
struct StoredName {
  std::string id;
  std::filesystem::path path;
  uint64_t bytes = 0;
};

struct DirectoryListing {
  std::vector<StoredName> incidents;  // "<id>.flightrec", sorted by id, oldest first
  // Regular files named as AtomicFile names the temporary of "<id>.flightrec"
  // (atomic_temporary_target): "<id>.flightrec.tmp.XXXXXX". Nothing else, whatever its name.
  std::vector<std::filesystem::path> temporaries;
  std::vector<std::filesystem::path> ignored;  // "*.flightrec" whose name is not an id
  // "*.flightrec" that is not a regular file, the error saying what it is ("a symbolic link, not
  // a regular file"): never followed, read, moved or deleted.
  std::vector<BadFile> skipped;
};

// The error names the directory when it cannot be read.
Result<DirectoryListing> list_incident_directory(const std::filesystem::path& dir);

// The listing with every incident file checked (check_incident_file).
struct DirectoryScan {
  std::vector<IncidentEntry> valid;                // sorted by id, oldest first
  std::vector<BadFile> bad;                        // torn or corrupt incident files
  std::vector<BadFile> unreadable;                 // could not be read: not judged
  std::vector<std::filesystem::path> gone;         // listed, then removed before they were read
  std::vector<std::filesystem::path> temporaries;  // as in DirectoryListing
  std::vector<std::filesystem::path> ignored;      // "*.flightrec" whose name is not an id
  std::vector<BadFile> skipped;                    // as in DirectoryListing
};

// Checks every file of a listing made earlier (the files may have changed since).
DirectoryScan check_listed_files(DirectoryListing listing);
// check_listed_files(list_incident_directory(dir)); the error names the directory when it cannot
// be read.
Result<DirectoryScan> scan_incident_directory(const std::filesystem::path& dir);

}  // namespace flightrec::incidents
