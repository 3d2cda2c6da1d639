#pragma once
// Builds prometheus-cpp families one sample at a time, registering units and created times as it
// goes. Samples of one family must be added consecutively.
#include <prometheus/metric_family.h>

#include <string>
#include <utility>
#include <vector>

#include "flightrec/exporter/exposition/serialize.h"

namespace flightrec::exporter::metrics {

class Families {
 public:
  Families(std::vector<prometheus::MetricFamily>& out, exposition::ExtrasByFamily& extras,
           double created)
      : out_(out), extras_(extras), created_(created) {}

  void gauge(const std::string& name, const std::string& help, const std::string& unit, double v,
             std::vector<prometheus::ClientMetric::Label> labels = {}) {
    prometheus::ClientMetric m;
    m.label = std::move(labels);
    m.gauge.value = v;
    add(name, help, unit, prometheus::MetricType::Gauge, std::move(m));
  }

  void counter(const std::string& name, const std::string& help, const std::string& unit, double v,
               std::vector<prometheus::ClientMetric::Label> labels = {}) {
    prometheus::ClientMetric m;
    m.label = std::move(labels);
    m.counter.value = v;
    add(name, help, unit, prometheus::MetricType::Counter, std::move(m));
    extras_[name].created_seconds.push_back(created_);
  }

  void histogram(const std::string& name, const std::string& help, const std::string& unit,
                 prometheus::ClientMetric::Histogram h) {
    prometheus::ClientMetric m;
    m.histogram = std::move(h);
    add(name, help, unit, prometheus::MetricType::Histogram, std::move(m));
    extras_[name].created_seconds.push_back(created_);
  }

 private:
  void add(const std::string& name, const std::string& help, const std::string& unit,
           prometheus::MetricType type, prometheus::ClientMetric metric) {
    if (out_.empty() || out_.back().name != name) {
      out_.push_back({name, help, type, {}});
      if (!unit.empty()) extras_[name].unit = unit;
    }
    out_.back().metric.push_back(std::move(metric));
  }

  std::vector<prometheus::MetricFamily>& out_;
  exposition::ExtrasByFamily& extras_;
  double created_;
};

}  // namespace flightrec::exporter::metrics
