#include "flightrec/dump/dump_route.h"

#include <time.h>

#include <optional>
#include <string>
#include <string_view>

#include "dump_window.h"
#include "flightrec/common/gzip.h"
#include "flightrec/common/printable.h"
#include "flightrec/http/header_list.h"
#include "flightrec/recording/convert.h"
#include "flightrec/recording/detail/metadata_codec.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/store/cursor.h"

namespace flightrec::dump {

int64_t DumpSource::now() const {
  if (now_real_ns) return now_real_ns();
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

namespace {

using recording::BlockList;
using recording::DumpFormat;
using recording::Metadata;
using recording::ProcessBlockList;
using recording::Sink;

constexpr std::string_view kText = "text/plain; charset=utf-8";

struct DumpRequest {
  DumpFormat format = DumpFormat::json;
  store::TimeRange range;
};

// /dump's own formats, then its views', between `separator`s: the error below and the route's
// summary name the same list.
std::string format_names(const std::vector<DumpView>& views, std::string_view separator) {
  std::string names;
  for (const auto& row : recording::kDumpFormatNames) {
    names.append(names.empty() ? "" : separator).append(row.name);
  }
  for (const auto& view : views) names.append(separator).append(view.name);
  return names;
}

std::string unknown_format(const std::string& format, const std::vector<DumpView>& views) {
  return "format: " + quote_for_error(format) + " is not one of " + format_names(views, ", ");
}

bool overlaps(const store::Block& block, const store::TimeRange& range) {
  return block.real_ns(block.last_tick()) >= range.from_real_ns &&
         block.real_ns(block.first_tick()) <= range.to_real_ns;
}

// Frames of `block` inside `range`: all of them unless the range cuts the block, when only the
// ticks (not the values) are decoded to count.
uint64_t frames_in_range(const store::Block& block, const store::TimeRange& range) {
  if (range.contains(block.real_ns(block.first_tick())) &&
      range.contains(block.real_ns(block.last_tick()))) {
    return block.frames();
  }
  std::vector<uint64_t> ticks;
  block.decode_ticks(ticks);
  uint64_t count = 0;
  for (const auto tick : ticks) count += range.contains(block.real_ns(tick)) ? 1u : 0u;
  return count;
}

bool overlaps(const store::ProcessBlock& block, const store::TimeRange& range) {
  return block.last_time_ns() >= range.from_real_ns && block.first_time_ns() <= range.to_real_ns;
}

// What a dump holds: the window's records of each ring.
struct Selected {
  BlockList blocks;
  ProcessBlockList process_blocks;
  store::ContainerFrameList container_frames;
};

uint64_t estimate_bytes(const Selected& selected, const Metadata& metadata, DumpFormat format,
                        const store::TimeRange& range) {
  const auto& [blocks, process_blocks, container_frames] = selected;
  uint64_t total = 0;
  if (format == DumpFormat::raw) {
    total = recording::detail::encode_metadata(metadata).size() + 64;  // header, CRC, trailer
    for (const auto& block : blocks) total += block->bytes().size() + 9;
    for (const auto& block : process_blocks) total += block->bytes().size() + 9;
    for (const auto& frame : container_frames) total += frame->bytes.size() + 9;
    return total;
  }
  const uint64_t row_bytes = kTextBytesPerRow + kTextBytesPerValue * metadata.series.size();
  for (const auto& block : blocks) total += frames_in_range(*block, range) * row_bytes;
  if (format == DumpFormat::json) {
    // Whole blocks: over by at most one block at each end of the window.
    for (const auto& block : process_blocks) {
      total +=
          block->process_rows() * kTextBytesPerProcess + block->socket_rows() * kTextBytesPerSocket;
    }
    for (const auto& frame : container_frames) {
      total += frame->bytes.size() * kTextBytesPerContainerFrameByte;
    }
  }
  return total;
}

void stream_dump(const Selected& selected, const Metadata& metadata, const DumpRequest& request,
                 const Sink& sink) {
  if (request.format == DumpFormat::raw) {
    recording::RecordingWriter writer(sink, metadata);
    if (writer.add_all(selected.blocks, selected.process_blocks, selected.container_frames)) {
      writer.finish();
    }
    return;
  }
  recording::TextConverter converter(request.format, metadata, request.range, sink);
  for (const auto& block : selected.blocks) {
    if (!converter.add(block)) return;
  }
  // Process rows name their containers: the converter sees the container frames first.
  for (const auto& frame : selected.container_frames) converter.add_container_names(*frame);
  for (const auto& block : selected.process_blocks) {
    if (!converter.add_process_block(*block)) return;
  }
  for (const auto& frame : selected.container_frames) {
    if (!converter.add_container_frame(*frame)) return;
  }
  converter.finish();
}

void send_dump(const DumpSource& source, const DumpRequest& request, const http::Request& req,
               http::Response& res) {
  Selected selected;
  for (auto& block : source.blocks()) {
    if (overlaps(*block, request.range)) selected.blocks.push_back(std::move(block));
  }
  if (source.process_blocks) {
    for (auto& block : source.process_blocks()) {
      if (overlaps(*block, request.range)) selected.process_blocks.push_back(std::move(block));
    }
  }
  if (source.container_frames) {
    selected.container_frames =
        source.container_frames(request.range.from_real_ns, request.range.to_real_ns);
  }
  auto metadata = source.metadata();
  if (request.format == DumpFormat::raw) {
    // Raw dumps carry whole blocks: the window asked for is kept so readers can cut to it.
    metadata.extra.emplace_back("dump.from", req.param("from").value_or(""));
    metadata.extra.emplace_back("dump.to", req.param("to").value_or(""));
  }
  const uint64_t estimate = estimate_bytes(selected, metadata, request.format, request.range);
  if (const uint64_t max_bytes = source.max_bytes(); estimate > max_bytes) {
    res.send(413, kText,
             "the dump would take about " + std::to_string(estimate) +
                 " bytes, more than web.max_dump_bytes (" + std::to_string(max_bytes) +
                 " bytes): narrow it with from= and to=\n");
    return;
  }
  // Raw blocks are compressed already; gzip would cost CPU for nothing.
  const bool gzip = request.format != DumpFormat::raw &&
                    http::accepts_gzip(req.header("Accept-Encoding").value_or(""));
  std::vector<http::Header> headers{{"Vary", "Accept-Encoding"}, {"Cache-Control", "no-store"}};
  if (gzip) headers.emplace_back("Content-Encoding", "gzip");
  res.begin(200, recording::content_type(request.format), headers);
  if (req.method() == "HEAD") {
    res.end();
    return;
  }
  const Sink to_client = [&res](std::string_view bytes) { return res.write(bytes); };
  if (gzip) {
    GzipWriter compressor(to_client);
    stream_dump(selected, metadata, request,
                [&compressor](std::string_view bytes) { return compressor.write(bytes); });
    compressor.finish();
  } else {
    stream_dump(selected, metadata, request, to_client);
  }
  res.end();
}

// The window first (the query is checked whatever the format), then the format: a view's, or
// one of /dump's own.
void handle_dump(const DumpSource& source, const std::vector<DumpView>& views,
                 const http::Request& req, http::Response& res) {
  const auto window = parse_dump_window(req, source.now());
  if (!window) {
    res.send(400, kText, window.error() + "\n");
    return;
  }
  DumpRequest request{.range = *window};
  const auto format = req.param("format");
  for (const auto& view : views) {
    if (format == view.name) {
      view.serve(source, request.range, req, res);
      return;
    }
  }
  if (format) {
    const auto parsed = recording::parse_dump_format(*format);
    if (!parsed) {
      res.send(400, kText, unknown_format(*format, views) + "\n");
      return;
    }
    request.format = *parsed;
  }
  send_dump(source, request, req, res);
}

}  // namespace

http::Route dump_route(DumpSource source, std::vector<DumpView> views) {
  std::string summary =
      "the recorded window at full resolution: ?from=&to=&format=" + format_names(views, "|");
  return {.path = "/dump",
          .summary = std::move(summary),
          .handler = [source = std::move(source), views = std::move(views)](
                         const http::Request& req,
                         http::Response& res) { handle_dump(source, views, req, res); },
          .right = http::Right::read_history};
}

}  // namespace flightrec::dump
