#include "flightrec/exposition/collectable.h"

namespace flightrec::exposition {

using prometheus::ClientMetric;
using prometheus::MetricType;

void Families::gauge(const std::string& name, const std::string& help, const std::string& unit,
                     double v, std::vector<ClientMetric::Label> labels) {
  ClientMetric m;
  m.label = std::move(labels);
  m.gauge.value = v;
  add_sample(name, help, unit, MetricType::Gauge, std::move(m));
}

void Families::counter(const std::string& name, const std::string& help, const std::string& unit,
                       double v, std::vector<ClientMetric::Label> labels,
                       std::optional<Exemplar> exemplar) {
  ClientMetric m;
  m.label = std::move(labels);
  m.counter.value = v;
  add_sample(name, help, unit, MetricType::Counter, std::move(m));
  auto& extras = extras_[name];
  extras.created_seconds.push_back(created_);
  if (exemplar) extras.exemplars.emplace(out_.back().metric.size() - 1, std::move(*exemplar));
}

void Families::histogram(const std::string& name, const std::string& help, const std::string& unit,
                         ClientMetric::Histogram h) {
  ClientMetric m;
  m.histogram = std::move(h);
  add_sample(name, help, unit, MetricType::Histogram, std::move(m));
  extras_[name].created_seconds.push_back(created_);
}

void Families::add(prometheus::MetricFamily family, const std::string& unit, bool created) {
  if (!unit.empty()) extras_[family.name].unit = unit;
  if (created) extras_[family.name].created_seconds.assign(family.metric.size(), created_);
  out_.push_back(std::move(family));
}

void Families::add_sample(const std::string& name, const std::string& help, const std::string& unit,
                          MetricType type, ClientMetric metric) {
  if (out_.empty() || out_.back().name != name) {
    out_.push_back({name, help, type, {}});
    if (!unit.empty()) extras_[name].unit = unit;
  }
  out_.back().metric.push_back(std::move(metric));
}

void Collectables::collect(int64_t now_mono_ns, std::vector<prometheus::MetricFamily>& families,
                           ExtrasByFamily& extras) const {
  Families out(families, extras, static_cast<double>(start_real_ns_) * 1e-9, now_mono_ns);
  for (const auto& collectable : collectables_) collectable->collect(out);
}

}  // namespace flightrec::exposition
