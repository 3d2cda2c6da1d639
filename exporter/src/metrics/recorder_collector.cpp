#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exposition/conversions.h"

namespace flightrec::exporter::metrics {

using exposition::as_double;
using exposition::Families;
using exposition::seconds;

void RecorderCollector::collect(Families& out) const {
  out.counter("flightrec_recorder_frames_total", "Frames the recorder moved into the ring.", "",
              as_double(recorder_.frames_recorded()));
  const store::RingStats ring = ring_.stats();
  out.gauge("flightrec_ring_bytes",
            "Memory held by the ring's sealed blocks (bounded by "
            "buffer.max_bytes).",
            "bytes", as_double(ring.bytes));
  out.gauge("flightrec_ring_encoded_bytes", "Serialized size of the ring's sealed blocks.", "bytes",
            as_double(ring.encoded_bytes));
  out.gauge("flightrec_ring_frames", "Frames held in the ring's sealed blocks.", "",
            as_double(ring.frames));
  out.gauge("flightrec_ring_span_seconds", "Time between the oldest and newest sealed frame.",
            "seconds", seconds(ring.last_real_ns - ring.first_real_ns));
  out.gauge("flightrec_ring_encoded_bytes_per_value",
            "Compression: encoded bytes per stored value.", "", ring.bytes_per_value());
  out.counter("flightrec_ring_dropped_blocks_total",
              "Blocks dropped from the ring to keep within buffer.duration and buffer.max_bytes.",
              "", as_double(ring.dropped_blocks));
}

}  // namespace flightrec::exporter::metrics
