#include "metrics_handler.h"

#include <time.h>

#include "flightrec/common/log.h"
#include "flightrec/exporter/exposition/gzip.h"
#include "flightrec/exporter/exposition/negotiation.h"

namespace flightrec::exporter::metrics {
namespace {
int64_t monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}
}  // namespace

http::Handler metrics_handler(Collector& collector) {
  return [&collector](const http::Request& req, http::Response& res) {
    const int64_t start = monotonic_ns();
    std::vector<prometheus::MetricFamily> families;
    exposition::ExtrasByFamily extras;
    collector.collect(start, families, extras);

    const auto format = exposition::negotiate(req.header("Accept").value_or(""));
    std::string body;
    for (const auto& warning : exposition::serialize_into(format, families, extras, body)) {
      log::debug("metrics family left out", {{"reason", warning}});
    }
    std::vector<http::Header> headers{{"Vary", "Accept, Accept-Encoding"}};
    if (exposition::accepts_gzip(req.header("Accept-Encoding").value_or(""))) {
      body = exposition::gzip(body);
      headers.emplace_back("Content-Encoding", "gzip");
    }
    res.send(200, exposition::content_type(format), body, headers);
    collector.record_scrape(format, monotonic_ns() - start);
  };
}

}  // namespace flightrec::exporter::metrics
