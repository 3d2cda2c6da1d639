#pragma once
#include "flightrec/exporter/metrics/collector.h"
#include "flightrec/http/server.h"

namespace flightrec::exporter::metrics {

// GET /metrics: OpenMetrics 1.0 or text 0.0.4 by the Accept header, gzip by Accept-Encoding.
http::Handler metrics_handler(Collector& collector);

}  // namespace flightrec::exporter::metrics
