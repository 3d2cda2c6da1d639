#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exposition/conversions.h"

namespace flightrec::exporter::metrics {

using exposition::as_double;

void ContainerRingCollector::collect(exposition::Families& out) const {
  const store::ContainerRingStats stats = ring_.stats();
  out.gauge("flightrec_container_ring_bytes",
            "Encoded bytes of the container frames held (bounded by an eighth of "
            "buffer.max_bytes).",
            "bytes", as_double(stats.bytes));
  out.gauge("flightrec_container_ring_frames",
            "Container frames held in the container ring, one per slow round.", "",
            as_double(stats.frames));
  out.counter("flightrec_container_ring_dropped_frames_total",
              "Container frames dropped to stay within buffer.duration and the ring's bytes.", "",
              as_double(stats.dropped_frames));
  out.counter("flightrec_container_ring_rejected_frames_total",
              "Container frames the ring refused (the clock went back, or one frame bigger than "
              "the ring); the reason is logged.",
              "", as_double(stats.rejected_frames));
}

}  // namespace flightrec::exporter::metrics
