#include "flightrec/incidents/list_command.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "flightrec/incidents/incident_file.h"
#include "flightrec/snapshot/time_format.h"

namespace flightrec::incidents {

int list_incidents_command(const std::filesystem::path& dir, std::ostream& out) {
  const DirectoryScan scan = scan_incident_directory(dir);
  if (!scan.error.empty()) {
    out << scan.error << "\n";
    return 1;
  }
  size_t id_width = 2;
  size_t rule_width = 4;
  for (const auto& entry : scan.valid) {
    id_width = std::max(id_width, entry.id.size());
    rule_width = std::max(rule_width, entry.info.rule.size());
  }
  char line[512];
  auto row = [&](std::string_view id, std::string_view rule, std::string_view value,
                 std::string_view fired_at, std::string_view bytes, std::string_view status) {
    std::snprintf(line, sizeof line, "%-*.*s  %-*.*s  %14.*s  %-24.*s  %12.*s  %.*s\n",
                  static_cast<int>(id_width), static_cast<int>(id.size()), id.data(),
                  static_cast<int>(rule_width), static_cast<int>(rule.size()), rule.data(),
                  static_cast<int>(value.size()), value.data(), static_cast<int>(fired_at.size()),
                  fired_at.data(), static_cast<int>(bytes.size()), bytes.data(),
                  static_cast<int>(status.size()), status.data());
    out << line;
  };
  row("ID", "RULE", "VALUE", "FIRED_AT", "BYTES", "STATUS");
  for (auto it = scan.valid.rbegin(); it != scan.valid.rend(); ++it) {
    char value[32];
    std::snprintf(value, sizeof value, "%.6g", it->info.value);
    row(it->id, it->info.rule, value, snapshot::format_rfc3339_ms(it->info.fired_at_ns),
        std::to_string(it->bytes), "written");
  }
  for (const auto& bad : scan.bad) {
    out << "corrupt: " << bad.path.string() << ": " << bad.error << "\n";
  }
  return 0;
}

}  // namespace flightrec::incidents
