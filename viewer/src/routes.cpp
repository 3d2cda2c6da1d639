#include "flightrec/viewer/routes.h"

#include <string>

#include "flightrec/common/gzip.h"
#include "flightrec/common/number_format.h"
#include "flightrec/http/header_list.h"
#include "flightrec/http/query_check.h"
#include "flightrec/incidents/stored_file.h"
#include "flightrec/recording/convert.h"
#include "flightrec/recording/dump_window.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/viewer/page.h"

namespace flightrec::viewer {
namespace {

constexpr std::string_view kText = "text/plain; charset=utf-8";
constexpr std::string_view kHtml = "text/html; charset=utf-8";
constexpr std::string_view kIncidentsPrefix = "/incidents/";
constexpr std::string_view kViewSuffix = "/view";

// The page may run its own inline script and styles and draw data: images, nothing else: no
// request can leave it, which also enforces "nothing fetched at run time".
const std::vector<http::Header> kPageHeaders{
    {"Content-Security-Policy",
     "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"},
    {"Cache-Control", "no-store"},
    {"Vary", "Accept-Encoding"}};

// The page, gzip-compressed when the client accepts it (its JSON shrinks ~6x). HEAD renders it too:
// its Content-Length and Content-Encoding must be GET's, and Response sends only the headers.
void send_page(const http::Request& request, http::Response& response, const std::string& page) {
  if (!http::accepts_gzip(request.header("Accept-Encoding").value_or(""))) {
    response.send(200, kHtml, page, kPageHeaders);
    return;
  }
  const std::string compressed = gzip(page);
  auto headers = kPageHeaders;
  headers.emplace_back("Content-Encoding", "gzip");
  response.send(200, kHtml, compressed, headers);
}

void send_incident_view(const incidents::IncidentStore& store, std::string_view id,
                        uint64_t max_file_bytes, const http::Request& request,
                        http::Response& response) {
  if (const auto error = http::check_query_names(request.query(), {}); !error.empty()) {
    response.send(400, kText, error + "\n");
    return;
  }
  auto stored = incidents::open_stored_file(store, id);
  if (!stored.ok()) {
    response.send(stored.status, kText, stored.error + "\n");
    return;
  }
  const std::string name(id);
  if (stored.bytes > max_file_bytes) {
    response.send(413, kText,
                  "incident " + name + " takes " + std::to_string(stored.bytes) +
                      " bytes, more than the viewer reads (" + std::to_string(max_file_bytes) +
                      " bytes): use /incidents/" + name + "?format=raw and flightrec replay\n");
    return;
  }
  // Streamed: the system blocks are all charted, the process blocks are kept encoded and only
  // the frames around the trigger get decoded (frames_near).
  recording::RecordingReader reader(stored.file);
  std::vector<std::shared_ptr<const store::Block>> blocks;
  std::vector<std::shared_ptr<const store::ProcessBlock>> processes;
  if (reader.open()) {
    while (true) {
      auto record = reader.next_record();
      if (record.block) {
        blocks.push_back(std::move(record.block));
      } else if (record.process_block) {
        processes.push_back(std::move(record.process_block));
      } else {
        break;
      }
    }
  }
  if (!reader.complete()) {
    response.send(500, kText, "incident " + name + ": " + reader.error() + "\n");
    return;
  }
  send_page(request, response,
            render_view_page(reader.metadata(), blocks, processes,
                             incident_view_options(name, reader.metadata())));
}

void send_dump_view(const recording::DumpSource& source, const http::Request& request,
                    http::Response& response) {
  const int64_t now_ns = source.now();
  store::TimeRange range;
  if (const auto error = recording::parse_dump_window(request, now_ns, range); !error.empty()) {
    response.send(400, kText, error + "\n");
    return;
  }
  const auto metadata = source.metadata();
  const auto blocks = source.blocks();
  const auto processes = source.process_blocks
                             ? source.process_blocks()
                             : std::vector<std::shared_ptr<const store::ProcessBlock>>{};
  ViewOptions options{.title = "flightrec on " + metadata.host, .range = range};
  options.details = {{"host", metadata.host},
                     {"from", request.param("from").value_or("start of the buffer")},
                     {"to", request.param("to").value_or("now")}};
  send_page(request, response, render_view_page(metadata, blocks, processes, options));
}

}  // namespace

http::Handler incidents_handler_with_view(const incidents::IncidentStore& store,
                                          http::Handler incidents, uint64_t max_file_bytes) {
  return [&store, incidents = std::move(incidents), max_file_bytes](const http::Request& request,
                                                                    http::Response& response) {
    const std::string_view path = request.path();
    if (path.starts_with(kIncidentsPrefix) && path.ends_with(kViewSuffix) &&
        path.size() > kIncidentsPrefix.size() + kViewSuffix.size()) {
      const auto id = path.substr(kIncidentsPrefix.size(),
                                  path.size() - kIncidentsPrefix.size() - kViewSuffix.size());
      send_incident_view(store, id, max_file_bytes, request, response);
      return;
    }
    incidents(request, response);
  };
}

http::Handler dump_handler_with_view(recording::DumpSource source, http::Handler dump) {
  return [source = std::move(source), dump = std::move(dump)](const http::Request& request,
                                                              http::Response& response) {
    const auto format = request.param("format");
    if (format == "html") {
      send_dump_view(source, request, response);
    } else if (format && !recording::parse_dump_format(*format)) {
      // Answered here rather than by `dump`, whose list of formats does not know this one.
      response.send(400, kText, "format: \"" + *format + "\" is not one of json, csv, raw, html\n");
    } else {
      dump(request, response);
    }
  };
}

}  // namespace flightrec::viewer
