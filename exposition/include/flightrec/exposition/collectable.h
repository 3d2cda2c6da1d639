#pragma once
// The extension point of /metrics, after prometheus-cpp's Collectable: each component's collector
// appends its own families to one Families per scrape, and the /metrics route renders the
// Collectables the app registered, in registration order.
#include <prometheus/metric_family.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "flightrec/exposition/serialize.h"

namespace flightrec::exposition {

// Appends to the families of one scrape and their OpenMetrics extras (units, created times).
// Samples of one family are added consecutively.
class Families {
 public:
  // `created_seconds`: when the daemon started, in Unix seconds.
  Families(std::vector<prometheus::MetricFamily>& out, ExtrasByFamily& extras,
           double created_seconds, int64_t now_mono_ns = 0)
      : out_(out), extras_(extras), created_(created_seconds), now_mono_ns_(now_mono_ns) {}

  // When the scrape happens: the end of the window aggregates.
  [[nodiscard]] int64_t now_mono_ns() const noexcept { return now_mono_ns_; }
  // When the daemon started, in Unix seconds: every counter flightrec exposes began then.
  [[nodiscard]] double created_seconds() const noexcept { return created_; }

  void gauge(const std::string& name, const std::string& help, const std::string& unit, double v,
             std::vector<prometheus::ClientMetric::Label> labels = {});
  void counter(const std::string& name, const std::string& help, const std::string& unit, double v,
               std::vector<prometheus::ClientMetric::Label> labels = {},
               std::optional<Exemplar> exemplar = std::nullopt);
  void histogram(const std::string& name, const std::string& help, const std::string& unit,
                 prometheus::ClientMetric::Histogram h);
  // A family built whole; `created` gives each of its series the daemon's start as created time.
  void add(prometheus::MetricFamily family, const std::string& unit, bool created = false);

  // What the scrape serializes, for collectors that write families themselves.
  std::vector<prometheus::MetricFamily>& families() noexcept { return out_; }
  ExtrasByFamily& extras() noexcept { return extras_; }

 private:
  void add_sample(const std::string& name, const std::string& help, const std::string& unit,
                  prometheus::MetricType type, prometheus::ClientMetric metric);

  std::vector<prometheus::MetricFamily>& out_;
  ExtrasByFamily& extras_;
  double created_;
  int64_t now_mono_ns_;
};

class Collectable {
 public:
  virtual ~Collectable() = default;
  // Appends this collector's families. Any thread, concurrently with the sampler and recorder.
  virtual void collect(Families& out) const = 0;
};

// The collectors /metrics renders, in the order they were added (the order of the output).
class Collectables {
 public:
  explicit Collectables(int64_t start_real_ns) : start_real_ns_(start_real_ns) {}

  template <typename C, typename... Args>
  C& emplace(Args&&... args) {
    auto collector = std::make_unique<C>(std::forward<Args>(args)...);
    C& added = *collector;
    collectables_.push_back(std::move(collector));
    return added;
  }

  // Every collector's families, in order, into `families` and `extras`.
  void collect(int64_t now_mono_ns, std::vector<prometheus::MetricFamily>& families,
               ExtrasByFamily& extras) const;

 private:
  int64_t start_real_ns_;
  std::vector<std::unique_ptr<Collectable>> collectables_;
};

}  // namespace flightrec::exposition
