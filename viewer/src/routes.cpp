#include "flightrec/viewer/routes.h"

#include <string>
#include <utility>

#include "flightrec/common/gzip.h"
#include "flightrec/common/number_format.h"
#include "flightrec/container/frame/container_frame_codec.h"
#include "flightrec/http/header_list.h"
#include "flightrec/http/query_check.h"
#include "flightrec/recording/convert.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/viewer/page.h"

namespace flightrec::viewer {
namespace {

constexpr std::string_view kText = "text/plain; charset=utf-8";
constexpr std::string_view kHtml = "text/html; charset=utf-8";

// The page may run its own inline script and styles and draw data: images, nothing else: no
// request can leave it, which also enforces "nothing fetched at run time".
const std::vector<http::Header> kPageHeaders{
    {"Content-Security-Policy",
     "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"},
    {"Cache-Control", "no-store"},
    {"Vary", "Accept-Encoding"}};

// A stored container frame, decoded, onto `frames`. The ring and the reader keep only frames that
// decode; one that a second decode refused would be left out of the page, not fail it.
void add_container_frame(const store::StoredContainerFrame& stored,
                         std::vector<container::ContainerFrame>& frames) {
  if (auto frame = container::decode_container_frame(stored.bytes)) {
    frames.push_back(*std::move(frame));
  }
}

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

void send_incident_view(const dump::StoredFileOpener& open_incident, std::string_view id,
                        uint64_t max_file_bytes, const http::Request& request,
                        http::Response& response) {
  if (const Status names = http::check_query_names(request.query(), {}); !names) {
    response.send(400, kText, names.error() + "\n");
    return;
  }
  auto stored = open_incident(id);
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
  std::vector<container::ContainerFrame> containers;
  if (reader.open()) {
    while (auto record = reader.next_record()) {
      if (record.block) {
        blocks.push_back(std::move(record.block));
      } else if (record.process_block) {
        processes.push_back(std::move(record.process_block));
      } else if (record.container_frame) {
        add_container_frame(*record.container_frame, containers);
      }
    }
  }
  if (!reader.complete()) {
    response.send(500, kText, "incident " + name + ": " + reader.error() + "\n");
    return;
  }
  ViewOptions options = incident_view_options(name, reader.metadata());
  options.containers = container_sections(containers);
  send_page(request, response, render_view_page(reader.metadata(), blocks, processes, options));
}

// The ring's container frames of the window; none without a container tier.
std::vector<container::ContainerFrame> container_frames_of(const dump::DumpSource& source,
                                                           const store::TimeRange& range) {
  std::vector<container::ContainerFrame> frames;
  if (!source.container_frames) return frames;
  for (const auto& stored : source.container_frames(range.from_real_ns, range.to_real_ns)) {
    add_container_frame(*stored, frames);
  }
  return frames;
}

void send_dump_view(const dump::DumpSource& source, const store::TimeRange& range,
                    const http::Request& request, http::Response& response) {
  const auto metadata = source.metadata();
  const auto blocks = source.blocks();
  const auto processes = source.process_blocks
                             ? source.process_blocks()
                             : std::vector<std::shared_ptr<const store::ProcessBlock>>{};
  ViewOptions options{.title = "flightrec on " + metadata.host, .range = range};
  options.details = {{"host", metadata.host},
                     {"from", request.param("from").value_or("start of the buffer")},
                     {"to", request.param("to").value_or("now")}};
  options.containers = container_sections(container_frames_of(source, range), range);
  send_page(request, response, render_view_page(metadata, blocks, processes, options));
}

}  // namespace

http::Route incident_view_route(dump::StoredFileOpener open_incident, uint64_t max_file_bytes) {
  return {.path = "/incidents/{id}/view",
          .summary = "one incident as a page of charts, for a browser",
          .handler =
              [open_incident = std::move(open_incident), max_file_bytes](
                  const http::Request& request, http::Response& response) {
                send_incident_view(open_incident, request.path_value("id"), max_file_bytes, request,
                                   response);
              },
          .right = http::Right::read_history};
}

dump::DumpView dump_page() { return {.name = "html", .serve = send_dump_view}; }

}  // namespace flightrec::viewer
