#include "flightrec/incidents/incident_file.h"

#include <algorithm>
#include <fstream>
#include <system_error>

#include "flightrec/common/number_format.h"
#include "flightrec/incidents/incident_id.h"
#include "flightrec/recording/recording_file.h"

namespace flightrec::incidents {

FileCheck check_incident_file(const std::filesystem::path& path, const std::atomic<bool>* cancel) {
  FileCheck check;
  std::error_code ec;
  check.bytes = std::filesystem::file_size(path, ec);
  std::ifstream in(path, std::ios::binary);
  if (ec || !in) {
    check.error = "cannot open: " + (ec ? ec.message() : std::string("open failed"));
    return check;
  }
  recording::RecordingReader reader(in);
  int64_t first_ns = 0;
  int64_t last_ns = 0;
  bool any_block = false;
  if (reader.open()) {
    while (const auto block = reader.next()) {
      if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
        check.error = "check cancelled";
        return check;
      }
      if (!any_block) first_ns = block->real_ns(block->first_tick());
      last_ns = block->real_ns(block->last_tick());
      any_block = true;
    }
  }
  if (!reader.complete()) {
    check.error = reader.error();
    return check;
  }
  check.incident = model::decode_incident(reader.metadata()).value_or(model::IncidentDescription{});
  if (check.incident.window_from_ns == 0 && check.incident.window_to_ns == 0 && any_block) {
    check.incident.window_from_ns = first_ns;
    check.incident.window_to_ns = last_ns;
  }
  return check;
}

DirectoryListing list_incident_directory(const std::filesystem::path& dir) {
  DirectoryListing listing;
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec);
  if (ec) {
    listing.error = dir.string() + ": cannot read the directory: " + ec.message();
    return listing;
  }
  const std::string temp_marker = std::string(kIncidentExtension) + ".tmp.";
  for (const auto& item : it) {
    const std::string name = item.path().filename().string();
    if (name.find(temp_marker) != std::string::npos) {
      listing.temporaries.push_back(item.path());
      continue;
    }
    if (!name.ends_with(kIncidentExtension) || !item.is_regular_file(ec)) continue;
    std::string id = name.substr(0, name.size() - kIncidentExtension.size());
    if (!is_valid_incident_id(id)) {
      listing.ignored.push_back(item.path());
      continue;
    }
    const uint64_t bytes = item.file_size(ec);
    listing.incidents.push_back(
        {.id = std::move(id), .path = item.path(), .bytes = ec ? 0 : bytes});
  }
  std::sort(listing.incidents.begin(), listing.incidents.end(),
            [](const StoredName& a, const StoredName& b) { return a.id < b.id; });
  return listing;
}

DirectoryScan scan_incident_directory(const std::filesystem::path& dir) {
  DirectoryListing listing = list_incident_directory(dir);
  DirectoryScan scan{.temporaries = std::move(listing.temporaries),
                     .ignored = std::move(listing.ignored),
                     .error = std::move(listing.error)};
  for (auto& stored : listing.incidents) {
    FileCheck check = check_incident_file(stored.path);
    if (!check.ok()) {
      scan.bad.push_back({.path = std::move(stored.path), .error = std::move(check.error)});
      continue;
    }
    scan.valid.push_back(
        {.id = std::move(stored.id), .incident = std::move(check.incident), .bytes = check.bytes});
  }
  return scan;
}

}  // namespace flightrec::incidents
