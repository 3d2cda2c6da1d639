#pragma once
#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exposition/collectable.h"
#include "flightrec/http/route.h"

namespace flightrec::exporter::metrics {

// GET /metrics: the families of `collectables`, in OpenMetrics 1.0 or text 0.0.4 by the Accept
// header, gzip by Accept-Encoding; each scrape is recorded in `scrapes`. Both must outlive the
// server.
http::Route metrics_route(const exposition::Collectables& collectables, ScrapeCollector& scrapes);

}  // namespace flightrec::exporter::metrics
