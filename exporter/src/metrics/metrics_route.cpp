#include "flightrec/exporter/metrics/metrics_route.h"

#include <time.h>

#include <array>
#include <memory>
#include <mutex>

#include "flightrec/common/clock.h"
#include "flightrec/common/gzip.h"
#include "flightrec/common/log.h"
#include "flightrec/exposition/negotiation.h"
#include "flightrec/http/header_list.h"
#include "flightrec/http/request.h"

namespace flightrec::exporter::metrics {
namespace {

// Scrapes that arrive together (several Prometheus servers, HA pairs) share one rendering: a body
// younger than this is served again. It matches the window aggregates' 100 ms resolution, so no
// answer is staler than the window edge already is.
constexpr int64_t kReuseNs = 100'000'000;

int64_t monotonic_ns() { return clock_ns(CLOCK_MONOTONIC); }

struct Rendered {
  int64_t at = 0;
  std::shared_ptr<const std::string> body;
};

// One rendering per format and encoding. The mutex is held while rendering (not while sending),
// so concurrent scrapes of one variant wait for the first and reuse its body.
class RenderCache {
 public:
  std::shared_ptr<const std::string> get(const exposition::Collectables& collectables,
                                         exposition::Format format, bool gzip) {
    std::lock_guard lock(mutex_);
    Rendered& slot = slots_[static_cast<size_t>(format) * 2 + (gzip ? 1 : 0)];
    const int64_t now = monotonic_ns();
    if (slot.body && now - slot.at < kReuseNs) return slot.body;
    std::vector<prometheus::MetricFamily> families;
    exposition::ExtrasByFamily extras;
    collectables.collect(now, families, extras);
    std::string body;
    for (const auto& warning : exposition::serialize_into(format, families, extras, body)) {
      log::debug("metrics family left out", {{"reason", warning}});
    }
    slot.body = std::make_shared<const std::string>(gzip ? flightrec::gzip(body) : std::move(body));
    slot.at = now;
    return slot.body;
  }

 private:
  std::mutex mutex_;
  std::array<Rendered, 4> slots_;
};

void serve_metrics(const exposition::Collectables& collectables, ScrapeCollector& scrapes,
                   RenderCache& cache, const http::Request& req, http::Response& res) {
  const int64_t start = monotonic_ns();
  const int64_t start_cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
  const auto format = exposition::negotiate(req.header("Accept").value_or(""));
  const bool gzip = http::accepts_gzip(req.header("Accept-Encoding").value_or(""));
  std::vector<http::Header> headers{{"Vary", "Accept, Accept-Encoding"}};
  if (gzip) headers.emplace_back("Content-Encoding", "gzip");
  const auto body = cache.get(collectables, format, gzip);
  res.send(200, exposition::content_type(format), *body, headers);
  scrapes.record(format, monotonic_ns() - start, clock_ns(CLOCK_THREAD_CPUTIME_ID) - start_cpu);
}

}  // namespace

http::Route metrics_route(const exposition::Collectables& collectables, ScrapeCollector& scrapes) {
  return {.path = "/metrics",
          .summary = "Prometheus exposition: text 0.0.4, or OpenMetrics when Accept asks for it",
          .handler =
              [&collectables, &scrapes, cache = std::make_shared<RenderCache>()](
                  const http::Request& req, http::Response& res) {
                serve_metrics(collectables, scrapes, *cache, req, res);
              },
          .right = http::Right::read_metrics};
}

}  // namespace flightrec::exporter::metrics
