#include "flightrec/incidents/incident_file.h"

#include <algorithm>
#include <fstream>
#include <system_error>

#include "flightrec/common/number_format.h"
#include "flightrec/incidents/incident_id.h"
#include "flightrec/recording/recording_file.h"

namespace flightrec::incidents {

FileCheck check_incident_file(const std::filesystem::path& path) {
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

DirectoryScan scan_incident_directory(const std::filesystem::path& dir) {
  DirectoryScan scan;
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec);
  if (ec) {
    scan.error = dir.string() + ": cannot read the directory: " + ec.message();
    return scan;
  }
  const std::string temp_marker = std::string(kIncidentExtension) + ".tmp.";
  for (const auto& item : it) {
    const std::string name = item.path().filename().string();
    if (name.find(temp_marker) != std::string::npos) {
      scan.temporaries.push_back(item.path());
      continue;
    }
    if (!name.ends_with(kIncidentExtension) || !item.is_regular_file(ec)) continue;
    const std::string id = name.substr(0, name.size() - kIncidentExtension.size());
    if (!is_valid_incident_id(id)) {
      scan.ignored.push_back(item.path());
      continue;
    }
    FileCheck check = check_incident_file(item.path());
    if (!check.ok()) {
      scan.bad.push_back({.path = item.path(), .error = std::move(check.error)});
      continue;
    }
    scan.valid.push_back({.id = id, .incident = std::move(check.incident), .bytes = check.bytes});
  }
  std::sort(scan.valid.begin(), scan.valid.end(),
            [](const IncidentEntry& a, const IncidentEntry& b) { return a.id < b.id; });
  return scan;
}

}  // namespace flightrec::incidents
