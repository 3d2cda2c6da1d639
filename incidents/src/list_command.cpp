#include "flightrec/incidents/list_command.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "flightrec/common/printable.h"
#include "flightrec/common/time_format.h"
#include "flightrec/incidents/incident_file.h"
#include "flightrec/model/value_text.h"
#include "incident_summary.h"
#include "shown_path.h"

namespace flightrec::incidents {

using detail::shown_path;

namespace {

// Whatever a client or an alert sent: anything but printable ASCII is shown quoted and escaped, so
// it cannot send escape sequences to the terminal.
std::string shown(const std::string& text) {
  return is_printable(text, Charset::ascii) ? text : quote_for_error(text);
}

// The last column, whatever a client or an alert sent made safe for the terminal.
std::string detail_of(const model::IncidentDescription& incident) {
  return shown(detail::incident_summary(incident));
}

}  // namespace

int print_incident_scan(const DirectoryScan& scan, std::ostream& out, std::ostream& err) {
  size_t id_width = 2;
  size_t kind_width = 4;
  size_t rule_width = 4;
  for (const auto& entry : scan.valid) {
    id_width = std::max(id_width, entry.id.size());
    kind_width = std::max(kind_width, model::kind_name(entry.incident.kind).size());
    rule_width = std::max(rule_width, entry.incident.rule.size());
  }
  char line[512];
  auto row = [&](std::string_view id, std::string_view kind, std::string_view rule,
                 std::string_view value, std::string_view fired_at, std::string_view bytes,
                 std::string_view status, std::string_view detail) {
    std::snprintf(line, sizeof line, "%-*.*s  %-*.*s  %-*.*s  %14.*s  %-24.*s  %12.*s  %-7.*s",
                  static_cast<int>(id_width), static_cast<int>(id.size()), id.data(),
                  static_cast<int>(kind_width), static_cast<int>(kind.size()), kind.data(),
                  static_cast<int>(rule_width), static_cast<int>(rule.size()), rule.data(),
                  static_cast<int>(value.size()), value.data(), static_cast<int>(fired_at.size()),
                  fired_at.data(), static_cast<int>(bytes.size()), bytes.data(),
                  static_cast<int>(status.size()), status.data());
    out << line;
    if (!detail.empty()) out << "  " << detail;
    out << "\n";
  };
  row("ID", "KIND", "RULE", "VALUE", "FIRED_AT", "BYTES", "STATUS", "DETAIL");
  for (auto it = scan.valid.rbegin(); it != scan.valid.rend(); ++it) {
    const model::IncidentDescription& incident = it->incident;
    // In the unit of the series the rule watched; "-" for alerts and manual requests.
    const std::string value = model::value_text(incident.series, incident.value);
    row(it->id, model::kind_name(incident.kind), incident.rule, value,
        format_rfc3339_ms(incident.fired_at_ns), std::to_string(it->bytes), "written",
        detail_of(incident));
  }
  for (const auto& bad : scan.bad) {
    out << "corrupt: " << shown_path(bad.path) << ": " << bad.error << "\n";
  }
  for (const auto& skipped : scan.skipped) {
    out << "skipped: " << shown_path(skipped.path) << ": " << skipped.error << "\n";
  }
  for (const auto& path : scan.gone) {
    out << "gone: " << shown_path(path) << " (removed while being listed, e.g. by retention)\n";
  }
  // Not a finding about the files, a failure to look at them: on stderr, and the exit status
  // says the listing is incomplete, as ls and grep do.
  for (const auto& unreadable : scan.unreadable) {
    err << "unreadable: " << shown_path(unreadable.path) << ": " << unreadable.error << "\n";
  }
  return scan.unreadable.empty() ? 0 : 2;
}

int list_incidents_command(const std::filesystem::path& dir, std::ostream& out, std::ostream& err) {
  const auto scan = scan_incident_directory(dir);
  if (!scan) {
    err << escape_unprintable(scan.error(), Newlines::escape) << "\n";
    return 1;
  }
  return print_incident_scan(*scan, out, err);
}

}  // namespace flightrec::incidents
