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

namespace flightrec::incidents {
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

// `key  value`, the values in one column; a value of several lines (an alert's description often
// is) goes on in that column. Values are whatever a client or an alert sent: printable() keeps
// them from driving the terminal.
void print_fields(const std::vector<Field>& fields, std::ostream& out) {
  size_t width = 0;
  for (const auto& field : fields) width = std::max(width, field.first.size());
  for (const auto& [key, value] : fields) {
    std::string lead = printable(key);
    lead.resize(width + 2, ' ');
    for (const auto& line : printable_lines(lead, value)) out << line << "\n";
  }
}

}  // namespace

int show_incident_command(const std::filesystem::path& dir, std::string_view id,
                          std::ostream& out) {
  if (!is_valid_incident_id(id)) {
    out << "not an incident id: " << quote_for_error(id) << "\n";
    return 1;
  }
  const std::filesystem::path path = dir / (std::string(id) + std::string(kIncidentExtension));
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  // Only a regular file is opened: reading a FIFO in its place would wait for a writer. A missing
  // file or one that cannot be looked at is for the check to say (gone, or the errno).
  if (!error && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    out << path.string() << " is not a regular file\n";
    return 1;
  }
  const FileCheck file = check_incident_file(path);
  switch (file.state) {
    case FileState::valid:
      break;
    case FileState::gone:
      out << "no incident " << id << " in " << dir.string() << "\n";
      return 1;
    case FileState::unreadable:
      // Not a judgement of the file: another user may read it (its owner, root).
      out << "unreadable: " << path.string() << ": " << file.error << "\n";
      return 1;
    case FileState::corrupt:
    case FileState::cancelled:
      out << "corrupt: " << path.string() << ": " << file.error << "\n";
      return 1;
  }
  print_fields(fields_of(id, path, file), out);
  return 0;
}

}  // namespace flightrec::incidents
