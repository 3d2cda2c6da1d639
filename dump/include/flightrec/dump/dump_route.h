#pragma once
// GET /dump?from=&to=&format=json|csv|raw: the rings' frames in a time window (system series and,
// when a process ring or a container ring is given, process frames and container frames), streamed
// (chunked, gzip when the client accepts it), one block at a time. Parameters and errors are
// specified in docs/RECORDING_FORMAT.md. Other components add formats of their own (the viewer's
// html page) as DumpViews.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "flightrec/http/request.h"
#include "flightrec/http/route.h"
#include "flightrec/recording/metadata.h"
#include "flightrec/store/block.h"
#include "flightrec/store/container_ring.h"
#include "flightrec/store/cursor.h"
#include "flightrec/store/process_block.h"

namespace flightrec::dump {

struct DumpSource {
  // Everything stored, oldest first, e.g. [&ring] { return ring.snapshot().blocks(); }.
  std::function<std::vector<std::shared_ptr<const store::Block>>()> blocks;
  // The schema (describe_schema at request time, so keys bound since start-up have their names),
  // rate, host and version; extra fields are copied into raw dumps.
  std::function<recording::Metadata()> metadata;
  // web.max_dump_bytes, read per request (a configuration reload may change it).
  std::function<uint64_t()> max_bytes = [] { return uint64_t{256} << 20; };
  std::function<int64_t()> now_real_ns;  // empty: CLOCK_REALTIME
  // The process tier's blocks, oldest first, e.g. [&process_ring] { return
  // process_ring.blocks(); }; empty when there is no process tier.
  std::function<std::vector<std::shared_ptr<const store::ProcessBlock>>()> process_blocks;
  // The container frames with from_ns <= time <= to_ns, oldest first, e.g. [&container_ring](auto
  // from, auto to) { return container_ring.frames_between(from, to); }; empty when there is no
  // container tier.
  std::function<store::ContainerFrameList(int64_t from_ns, int64_t to_ns)> container_frames;

  // now_real_ns(), or CLOCK_REALTIME when it is empty: what from= and to= are relative to.
  [[nodiscard]] int64_t now() const;
};

// A format /dump serves beyond its own: format=<name> hands the request, its query already
// checked and its from=/to= window read, to `serve`.
struct DumpView {
  std::string name;
  std::function<void(const DumpSource&, const store::TimeRange&, const http::Request&,
                     http::Response&)>
      serve;
};

// The size /dump assumes per value in JSON and CSV output when checking max_bytes, and per row for
// the timestamp. An estimate, not a bound: typical values take 2-12 characters.
inline constexpr uint64_t kTextBytesPerValue = 8;
inline constexpr uint64_t kTextBytesPerRow = 24;
// The same for JSON's process frames, per process row and per socket row.
inline constexpr uint64_t kTextBytesPerProcess = 200;
inline constexpr uint64_t kTextBytesPerSocket = 80;
// JSON's container frames, per byte of the encoded frame (a row of ~300 bytes is ~1.3 kB of JSON).
inline constexpr uint64_t kTextBytesPerContainerFrameByte = 5;

// GET and HEAD /dump, with json, csv, raw and every format of `views`.
http::Route dump_route(DumpSource source, std::vector<DumpView> views = {});

}  // namespace flightrec::dump
