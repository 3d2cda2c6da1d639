#pragma once
// flightrec's own health, node_exporter style: build info, sampler ticks (late, missed, queue
// overflows, lateness histogram), per-source reads (count, failures, duration, success), ring size
// and span, recorder throughput, and the previous scrape's duration.
#include <prometheus/metric_family.h>

#include <vector>

#include "flightrec/exporter/exposition/serialize.h"
#include "flightrec/exporter/metrics/collector.h"

namespace flightrec::exporter::metrics {

struct ScrapeCounts {
  int64_t last_duration_ns = 0;
  int64_t cpu_ns = 0;        // CPU the handler threads spent on all earlier /metrics requests
  uint64_t text = 0;         // earlier /metrics responses in text 0.0.4
  uint64_t openmetrics = 0;  // and in OpenMetrics 1.0.0
};

void collect_self(const CollectorInputs& in, const ScrapeCounts& scrapes,
                  std::vector<prometheus::MetricFamily>& families,
                  exposition::ExtrasByFamily& extras);

}  // namespace flightrec::exporter::metrics
