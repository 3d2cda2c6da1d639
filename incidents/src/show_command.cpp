#include "flightrec/incidents/show_command.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "flightrec/common/number_format.h"
#include "flightrec/common/printable.h"
#include "flightrec/common/time_format.h"
#include "flightrec/incidents/incident_file.h"
#include "flightrec/incidents/incident_id.h"
#include "flightrec/model/alert_details.h"
#include "shown_path.h"

namespace flightrec::incidents {

using detail::shown_path;

namespace {

using Field = std::pair<std::string, std::string>;

std::vector<Field> fields_of(std::string_view id, const std::filesystem::path& path,
                             const FileCheck& file) {
  const model::IncidentDescription& incident = file.incident;
  std::vector<Field> fields{{"id", std::string(id)},
                            {"file", path.string()},
                            {"bytes", std::to_string(file.bytes)},
                            {"kind", std::string(model::kind_name(incident.kind))},
                            {"rule", incident.rule}};
  const auto add_if_set = [&fields](std::string key, const std::string& value) {
    if (!value.empty()) fields.emplace_back(std::move(key), value);
  };
  add_if_set("condition", incident.condition);
  add_if_set("series", incident.series);
  if (std::isfinite(incident.value)) fields.emplace_back("value", number_text(incident.value));
  add_if_set("reason", incident.reason);
  fields.emplace_back("fired_at", format_rfc3339_ms(incident.fired_at_ns));
  fields.emplace_back("window", format_rfc3339_ms(incident.window_from_ns) + " to " +
                                    format_rfc3339_ms(incident.window_to_ns));
  // An alert first as its receiver names it, then each of its labels and annotations below.
  if (incident.kind == model::IncidentKind::alert) {
    fields.emplace_back("alert", model::alert_headline(incident, model::alert_details(incident)));
  }
  for (const auto& [key, value] : incident.details) fields.emplace_back(key, value);
  return fields;
}

// `key  value`, one line each, the values in one column. Keys and values are whatever a client
// or an alert sent: a control character (a line break in an alert's description too) and a byte
// that is not UTF-8 are written as \xNN, so that none drives the terminal or starts a line that
// reads as another field.
void print_fields(const std::vector<Field>& fields, std::ostream& out) {
  std::vector<std::pair<std::string, std::string>> shown;
  size_t width = 0;
  for (const auto& [key, value] : fields) {
    shown.emplace_back(escape_unprintable(key, Newlines::escape),
                       escape_unprintable(value, Newlines::escape));
    width = std::max(width, shown.back().first.size());
  }
  for (auto& [key, value] : shown) {
    key.resize(width + 2, ' ');
    out << key << value << "\n";
  }
}

}  // namespace

int show_incident_command(const std::filesystem::path& dir, std::string_view id, std::ostream& out,
                          std::string_view where_to_look) {
  if (!is_valid_incident_id(id)) {
    out << "not an incident id: " << quote_for_error(id) << "\n";
    return 1;
  }
  const std::filesystem::path path = dir / (std::string(id) + std::string(kIncidentExtension));
  const FileCheck file = check_incident_file(path);
  switch (file.state) {
    case FileState::valid:
      break;
    case FileState::gone:
      out << "no incident " << id << " in " << shown_path(dir) << "\n";
      if (!where_to_look.empty()) out << where_to_look << "\n";
      return 1;
    case FileState::unreadable:
      // Not a judgement of the file: another user may read it (its owner, root).
      out << "unreadable: " << shown_path(path) << ": " << file.error << "\n";
      return 1;
    case FileState::not_regular:
      out << shown_path(path) << " is " << file.error << "\n";
      return 1;
    case FileState::corrupt:
    case FileState::cancelled:
      out << "corrupt: " << shown_path(path) << ": " << file.error << "\n";
      return 1;
  }
  print_fields(fields_of(id, path, file), out);
  return 0;
}

}  // namespace flightrec::incidents
