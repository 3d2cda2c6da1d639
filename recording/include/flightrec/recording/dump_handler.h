#pragma once
// GET /dump?from=&to=&format=json|csv|raw: the rings' frames in a time window (system series and,
// when a process ring is given, process frames), streamed (chunked, gzip when the client accepts
// it), one block at a time. Parameters and errors are specified in
// docs/RECORDING_FORMAT.md.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "flightrec/http/server.h"
#include "flightrec/recording/metadata.h"
#include "flightrec/store/block.h"
#include "flightrec/store/process_block.h"

namespace flightrec::recording {

struct DumpSource {
  // Everything stored, oldest first, e.g. [&ring] { return ring.snapshot().blocks(); }.
  std::function<std::vector<std::shared_ptr<const store::Block>>()> blocks;
  // The schema (describe_schema at request time, so keys bound since start-up have their names),
  // rate, host and version; extra fields are copied into raw dumps.
  std::function<Metadata()> metadata;
  uint64_t max_bytes = 256ull << 20;     // web.max_dump_bytes
  std::function<int64_t()> now_real_ns;  // empty: CLOCK_REALTIME
  // The process tier's blocks, oldest first, e.g. [&process_ring] { return
  // process_ring.blocks(); }; empty when there is no process tier.
  std::function<std::vector<std::shared_ptr<const store::ProcessBlock>>()> process_blocks;

  // now_real_ns(), or CLOCK_REALTIME when it is empty: what from= and to= are relative to.
  [[nodiscard]] int64_t now() const;
};

// The size /dump assumes per value in JSON and CSV output when checking max_bytes, and per row for
// the timestamp. An estimate, not a bound: typical values take 2-12 characters.
inline constexpr uint64_t kTextBytesPerValue = 8;
inline constexpr uint64_t kTextBytesPerRow = 24;
// The same for JSON's process frames, per process row and per socket row.
inline constexpr uint64_t kTextBytesPerProcess = 200;
inline constexpr uint64_t kTextBytesPerSocket = 80;

http::Handler dump_handler(DumpSource source);

}  // namespace flightrec::recording
