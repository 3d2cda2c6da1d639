#pragma once
// flightrec's own health, node_exporter style: build info, sampler ticks (late, missed, queue
// overflows, lateness histogram), per-source reads (count, failures, duration, success), ring size
// and span, recorder throughput, and the previous scrape's duration.
#include <prometheus/metric_family.h>

#include <vector>

#include "flightrec/exporter/exposition/serialize.h"
#include "flightrec/exporter/metrics/collector.h"

namespace flightrec::exporter::metrics {

void collect_self(const CollectorInputs& in, int64_t last_scrape_ns,
                  std::vector<prometheus::MetricFamily>& families,
                  exposition::ExtrasByFamily& extras);

}  // namespace flightrec::exporter::metrics
