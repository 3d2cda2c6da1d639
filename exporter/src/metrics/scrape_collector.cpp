#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exposition/conversions.h"

namespace flightrec::exporter::metrics {

using exposition::as_double;
using exposition::Families;
using exposition::seconds;

void ScrapeCollector::collect(Families& out) const {
  out.gauge("flightrec_scrape_duration_seconds",
            "How long the previous /metrics request took to collect and serialize.", "seconds",
            seconds(last_scrape_ns_.load(std::memory_order_relaxed)));
  out.counter(
      "flightrec_scrape_cpu_seconds_total",
      "CPU time spent answering earlier /metrics requests (rendering, compressing, sending).",
      "seconds", seconds(scrape_cpu_ns_.load(std::memory_order_relaxed)));
  out.counter("flightrec_scrapes_total", "Earlier /metrics responses, by the format negotiated.",
              "", as_double(text_scrapes_.load(std::memory_order_relaxed)),
              {{"format", "text-0.0.4"}});
  out.counter("flightrec_scrapes_total", "Earlier /metrics responses, by the format negotiated.",
              "", as_double(openmetrics_scrapes_.load(std::memory_order_relaxed)),
              {{"format", "openmetrics-1.0.0"}});
}

void ScrapeCollector::record(exposition::Format format, int64_t ns, int64_t cpu_ns) noexcept {
  last_scrape_ns_.store(ns, std::memory_order_relaxed);
  scrape_cpu_ns_.fetch_add(cpu_ns, std::memory_order_relaxed);
  (format == exposition::Format::openmetrics_1_0_0 ? openmetrics_scrapes_ : text_scrapes_)
      .fetch_add(1, std::memory_order_relaxed);
}

}  // namespace flightrec::exporter::metrics
