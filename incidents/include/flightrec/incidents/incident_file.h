#pragma once
// The incident file is a recording (flightrec/recording/recording_file.h) whose metadata carries
// the incident's description as "incident.*" extras (model/incident_description.h). This
// validates whole files and reads their descriptions back.
#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "flightrec/incidents/incident.h"
#include "flightrec/recording/metadata.h"

namespace flightrec::incidents {

struct FileCheck {
  model::IncidentDescription incident;
  uint64_t bytes = 0;
  std::string error;  // empty when every section checked out; otherwise the reader's error
  [[nodiscard]] bool ok() const noexcept { return error.empty(); }
};

// Reads the whole file a block at a time (memory stays at one block). A recording without incident
// fields gets its window from its first and last frames. When `cancel` turns true the check stops
// between blocks with an error (the caller knows not to act on it).
FileCheck check_incident_file(const std::filesystem::path& path,
                              const std::atomic<bool>* cancel = nullptr);

// What a directory holds, without changing anything in it (safe while a daemon writes there).
struct BadFile {
  std::filesystem::path path;
  std::string error;  // the reader's
};

// A directory's names and sizes, nothing read from inside the files: cheap whatever the files hold.
struct StoredName {
  std::string id;
  std::filesystem::path path;
  uint64_t bytes = 0;
};

struct DirectoryListing {
  std::vector<StoredName> incidents;               // "<id>.flightrec", sorted by id, oldest first
  std::vector<std::filesystem::path> temporaries;  // "<id>.flightrec.tmp.*" from a write
  std::vector<std::filesystem::path> ignored;      // "*.flightrec" whose name is not an id
  std::string error;                               // the directory itself cannot be read
};

DirectoryListing list_incident_directory(const std::filesystem::path& dir);

// The listing with every incident file checked (check_incident_file).
struct DirectoryScan {
  std::vector<IncidentEntry> valid;                // sorted by id, oldest first
  std::vector<BadFile> bad;                        // torn or corrupt incident files
  std::vector<std::filesystem::path> temporaries;  // "<id>.flightrec.tmp.*" from a write
  std::vector<std::filesystem::path> ignored;      // "*.flightrec" whose name is not an id
  std::string error;                               // the directory itself cannot be read
};

DirectoryScan scan_incident_directory(const std::filesystem::path& dir);

}  // namespace flightrec::incidents
