#include "flightrec/incidents/handlers.h"

#include <array>
#include <cstdint>

#include "flightrec/common/json_writer.h"
#include "flightrec/common/log.h"
#include "flightrec/common/printable.h"
#include "flightrec/common/time_format.h"
#include "flightrec/http/media_type.h"
#include "flightrec/http/query_check.h"
#include "flightrec/incidents/list_page.h"
#include "flightrec/incidents/stored_file.h"
#include "flightrec/recording/convert.h"
#include "flightrec/recording/recording_file.h"

namespace flightrec::incidents {
namespace {

constexpr std::string_view kText = "text/plain; charset=utf-8";
constexpr size_t kChunkBytes = 64 * 1024;

// GET /incidents answers JSON, its first form, unless the client prefers HTML (a browser) or
// ?format= names one.
enum class ListFormat : uint8_t { json, html };
constexpr std::array<std::string_view, 2> kListMediaTypes{"application/json", "text/html"};

Result<ListFormat> list_format(const http::Request& request) {
  if (const auto format = request.param("format")) {
    if (*format == "json") return ListFormat::json;
    if (*format == "html") return ListFormat::html;
    return Error{"format: " + quote_for_error(*format) + " is not one of json, html"};
  }
  const auto chosen =
      http::preferred_media_type(request.header("Accept").value_or(""), kListMediaTypes);
  return chosen == 1 ? ListFormat::html : ListFormat::json;
}

// The page runs no script and loads nothing (its icon is inline, else the browser asks for
// /favicon.ico): its only links are followed by the reader.
const std::vector<http::Header> kPageHeaders{
    {"Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:"},
    {"Cache-Control", "no-store"},
    {"Vary", "Accept"}};

void send_list(const IncidentStore& store, const http::Request& request, http::Response& response) {
  if (const Status names = http::check_query_names(request.query(), {"format"}); !names) {
    response.send(400, kText, names.error() + "\n");
    return;
  }
  const auto format = list_format(request);
  if (!format) {
    response.send(400, kText, format.error() + "\n");
    return;
  }
  if (*format == ListFormat::html) {
    std::vector<http::Header> headers = kPageHeaders;
    headers.emplace_back(kScanHeader, scan_header_value(store.scan_progress()));
    response.send(200, "text/html; charset=utf-8",
                  incidents_page_html(store.list(), replay_target(request)), headers);
    return;
  }
  response.send(
      200, "application/json", incidents_json(store.list()),
      {{std::string(kScanHeader), scan_header_value(store.scan_progress())}, {"Vary", "Accept"}});
}

void send_raw(dump::StoredFile& stored, const std::string& id, http::Response& response) {
  response.begin(200, "application/octet-stream",
                 {{"Content-Disposition", "attachment; filename=\"" + id + ".flightrec\""}});
  std::string chunk(kChunkBytes, '\0');
  while (stored.file) {
    stored.file.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto got = static_cast<size_t>(stored.file.gcount());
    if (got == 0 || !response.write(std::string_view(chunk).substr(0, got))) break;
  }
  response.end();
}

// Checks every section first so that a file damaged since start-up yields an error, not a
// truncated document, then converts one block at a time.
void send_text(dump::StoredFile& stored, const std::string& id, recording::DumpFormat format,
               http::Response& response) {
  {
    recording::RecordingReader reader(stored.file);
    if (reader.open()) {
      while (reader.next()) {
      }
    }
    if (!reader.complete()) {
      response.send(500, kText, "incident " + id + ": " + reader.error() + "\n");
      return;
    }
  }
  // Verified above; converted in a second pass (system rows, then process frames) so memory stays
  // bounded by one block whatever the incident's size.
  response.begin(200, recording::content_type(format));
  const Status converted = recording::convert_recording_file(
      stored.path, format, {},
      [&response](std::string_view bytes) { return response.write(bytes); });
  if (!converted) {
    log::warn("incident text conversion stopped", {{"id", id}, {"err", converted.error()}});
  }
  response.end();
}

void send_incident(const IncidentStore& store, std::string_view id, const http::Request& request,
                   http::Response& response) {
  if (const Status names = http::check_query_names(request.query(), {"format"}); !names) {
    response.send(400, kText, names.error() + "\n");
    return;
  }
  const std::string format_name = request.param("format").value_or("raw");
  const auto format = recording::parse_dump_format(format_name);
  if (!format) {
    response.send(400, kText,
                  "format: " + quote_for_error(format_name) + " is not one of raw, json, csv\n");
    return;
  }
  dump::StoredFile stored = open_stored_file(store, id);
  if (!stored.ok()) {
    response.send(stored.status, kText, stored.error + "\n");
    return;
  }
  const std::string name(id);
  if (*format == recording::DumpFormat::raw) {
    send_raw(stored, name, response);
  } else {
    send_text(stored, name, *format, response);
  }
}

}  // namespace

std::string scan_header_value(const ScanProgress& scan) {
  return std::string(scan.running ? "running" : "done") +
         "; verified=" + std::to_string(scan.verified) + "; total=" + std::to_string(scan.total);
}

std::string incidents_json(const std::vector<IncidentEntry>& entries) {
  std::string out;
  JsonWriter json(out);
  json.begin_array();
  for (const auto& entry : entries) {
    json.begin_object();
    json.key("id").string(entry.id);
    if (entry.status == IncidentStatus::verifying || entry.status == IncidentStatus::unreadable) {
      // Its description is inside the file: not read yet, or it cannot be read (the error says
      // why).
      json.key("bytes").number(entry.bytes);
      json.key("status").string(status_name(entry.status));
      if (entry.status == IncidentStatus::unreadable) json.key("error").string(entry.error);
      json.end_object();
      continue;
    }
    const model::IncidentDescription& incident = entry.incident;
    json.key("kind").string(model::kind_name(incident.kind));
    json.key("rule").string(incident.rule);
    json.key("condition").string(incident.condition);
    json.key("series").string(incident.series);
    json.key("value").number(incident.value);
    json.key("reason").string(incident.reason);
    json.key("details").begin_object();
    for (const auto& [key, text] : incident.details) json.key(key).string(text);
    json.end_object();
    json.key("fired_at").string(format_rfc3339_ms(incident.fired_at_ns));
    json.key("window").begin_object();
    json.key("from").string(format_rfc3339_ms(incident.window_from_ns));
    json.key("to").string(format_rfc3339_ms(incident.window_to_ns));
    json.end_object();
    json.key("bytes").number(entry.bytes);
    json.key("status").string(status_name(entry.status));
    if (entry.status == IncidentStatus::failed) {
      json.key("cause").string(cause_name(entry.cause.value_or(FailureCause::other)));
      json.key("error").string(entry.error);
    }
    json.end_object();
  }
  json.end_array();
  out += '\n';
  return out;
}

http::Handler list_handler(const IncidentStore& store) {
  return [&store](const http::Request& request, http::Response& response) {
    send_list(store, request, response);
  };
}

http::Handler incident_handler(const IncidentStore& store) {
  return [&store](const http::Request& request, http::Response& response) {
    send_incident(store, request.path_value("id"), request, response);
  };
}

}  // namespace flightrec::incidents
