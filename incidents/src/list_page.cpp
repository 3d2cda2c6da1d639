#include "flightrec/incidents/list_page.h"

#include <algorithm>

#include "flightrec/common/html_escape.h"
#include "flightrec/common/time_format.h"
#include "flightrec/common/version.h"
#include "flightrec/model/value_text.h"
#include "incident_summary.h"

namespace flightrec::incidents {
namespace {

// A Host header worth repeating in a command line: a name, an IPv4 or a bracketed IPv6 address,
// and a port. Anything else (or nothing) leaves a placeholder for the reader to fill in.
bool plausible_host(std::string_view host) {
  constexpr size_t kMaxHostLength = 255;
  if (host.empty() || host.size() > kMaxHostLength) return false;
  return std::all_of(host.begin(), host.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-' || c == ':' || c == '[' || c == ']';
  });
}

// A word for a POSIX shell: single-quoted unless it needs nothing.
std::string shell_word(std::string_view word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-' || c == '_' || c == '@';
  });
  if (plain) return std::string(word);
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string replay_command(const ReplayTarget& target, const std::string& id) {
  std::string command = "flightrec replay " + target.origin + "/incidents/" + id;
  if (!target.user.empty()) command += " --user " + shell_word(target.user);
  return command;
}

// A written incident has a file to view, download and replay; the others say what became of it.
bool has_file(const IncidentEntry& entry) { return entry.status == IncidentStatus::written; }

std::string count_text(size_t count) {
  return std::to_string(count) + (count == 1 ? " incident" : " incidents");
}

std::string cell(std::string_view text) { return "<td>" + escape_html(text) + "</td>"; }

std::string row(const IncidentEntry& entry, const ReplayTarget& target) {
  // Ids are of a strict charset (incident_id.h), safe in a path; escaped all the same.
  const std::string id = escape_html(entry.id);
  if (entry.status == IncidentStatus::verifying || entry.status == IncidentStatus::unreadable) {
    // Its description is inside the file: not read yet, or it cannot be read.
    return "<tr class=\"" + std::string(status_name(entry.status)) + "\"><td colspan=\"6\">" + id +
           ": " + escape_html(status_name(entry.status)) +
           (entry.error.empty() ? "" : " (" + escape_html(entry.error) + ")") +
           "</td><td></td></tr>\n";
  }
  const model::IncidentDescription& incident = entry.incident;
  std::string about = escape_html(detail::incident_summary(incident));
  if (entry.status == IncidentStatus::failed) {
    about += " <strong>not written</strong>: " + escape_html(entry.error);
  }
  std::string links;
  if (has_file(entry)) {
    links = "<a href=\"/incidents/" + id + "/view\">view</a> <a href=\"/incidents/" + id +
            "\">file</a> <code class=\"cmd\">" + escape_html(replay_command(target, entry.id)) +
            "</code>";
  }
  return "<tr id=\"" + id + "\">" + cell(format_rfc3339_ms(incident.fired_at_ns)) +
         cell(model::kind_name(incident.kind)) + cell(detail::fired_by(incident)) +
         "<td class=\"value\">" + escape_html(model::value_text(incident.series, incident.value)) +
         "</td><td>" + about + "</td>" + cell(status_name(entry.status)) + "<td>" + links +
         "</td></tr>\n";
}

}  // namespace

ReplayTarget replay_target(const http::Request& request) {
  const std::optional<std::string_view> host = request.header("Host");
  const std::string scheme = request.secure() ? "https://" : "http://";
  return {.origin = scheme + (host && plausible_host(*host) ? std::string(*host) : "HOST:PORT"),
          .user = request.user().value_or("")};
}

std::string incidents_page_html(const std::vector<IncidentEntry>& entries,
                                const ReplayTarget& target) {
  std::string page = R"(<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>incidents - flightrec</title>
<link rel="icon" href="data:,">
<style>
body { font-family: sans-serif; margin: 1em 2em; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 0.2em 0.6em; border-bottom: 1px solid #ddd; vertical-align: top; }
td.value, td:first-child { white-space: nowrap; }
td.value { text-align: right; }
code.cmd { user-select: all; font-size: 0.85em; }
tr.failed, tr.unreadable { color: #a00; }
</style></head>
<body>
<h1>Incidents</h1>
<p><a href="/">flightrec</a> )" +
                     escape_html(kVersion) + " &middot; " + count_text(entries.size()) +
                     R"(, newest first &middot; <a href="/incidents?format=json">JSON</a>.
Times are UTC; a value is the one the rule compared (none for manual requests and alerts).</p>
)";
  if (entries.empty()) {
    page += "<p>No incidents recorded yet.</p>\n";
  } else {
    page +=
        "<table>\n<tr><th>fired at (UTC)</th><th>kind</th><th>rule or alert</th><th>value</th>"
        "<th>reason</th><th>status</th><th>open</th></tr>\n";
    for (const auto& entry : entries) page += row(entry, target);
    page += "</table>\n";
  }
  page += "</body>\n</html>\n";
  return page;
}

std::string newest_incidents_html(const std::vector<IncidentEntry>& entries, size_t count) {
  std::string html = "<h2>Newest incidents</h2>\n";
  if (entries.empty()) return html + "<p>No incidents recorded yet.</p>\n";
  html += "<ul>\n";
  size_t shown = 0;
  for (const auto& entry : entries) {
    if (shown == count) break;
    if (!has_file(entry)) continue;
    ++shown;
    const model::IncidentDescription& incident = entry.incident;
    const std::string id = escape_html(entry.id);
    html += "<li><a href=\"/incidents/" + id + "/view\">" +
            escape_html(format_rfc3339_ms(incident.fired_at_ns)) + " " +
            escape_html(model::kind_name(incident.kind)) + " " +
            escape_html(detail::fired_by(incident)) + "</a> " +
            escape_html(detail::incident_summary(incident)) + "</li>\n";
  }
  html += "</ul>\n<p><a href=\"/incidents\">All " + count_text(entries.size()) + "</a></p>\n";
  return html;
}

}  // namespace flightrec::incidents
