#include <cmath>
#include <limits>

#include "flightrec/config/units.h"
#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/sampler/slot_table.h"

namespace flightrec::exporter::metrics {

using exposition::Families;
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

template <typename Group, typename Desc>
Group& group_for(std::vector<Group>& groups, const std::string& name, const Desc& desc) {
  for (auto& g : groups) {
    if (g.name == name) return g;
  }
  Group g;
  g.name = name;
  g.help = desc.help;
  g.unit = desc.unit;
  groups.push_back(std::move(g));
  return groups.back();
}

// "cpu_busy_ratio" -> "cpu_busy_tick_ratio": the per-tick histogram of a ratio signal.
std::string histogram_name(const std::string& signal_name) {
  const std::string_view suffix = "_ratio";
  return "flightrec_" + signal_name.substr(0, signal_name.size() - suffix.size()) + "_tick_ratio";
}

// Labels of a series: its fixed labels, then its keyed label once the slot is bound.
// False when the series' key slot is not bound yet (the series is not exposed).
bool series_labels(const sampler::SeriesDesc& desc, std::vector<ClientMetric::Label>& out) {
  out.clear();
  for (const auto& [k, v] : desc.labels) out.push_back({k, v});
  if (desc.keys != nullptr) {
    if (desc.key_slot >= desc.keys->bound()) return false;
    out.push_back({desc.key_label, std::string(desc.keys->name(desc.key_slot))});
  }
  return true;
}

}  // namespace

SystemCollector::SystemCollector(const sampler::Schema& schema, const recorder::Recorder& recorder)
    : schema_(schema), recorder_(recorder) {
  for (size_t i = 0; i < schema.size(); ++i) {
    auto& family = group_for(raw_, "flightrec_" + schema[i].name, schema[i]);
    family.counter = schema[i].kind == sampler::SeriesKind::counter;
    family.series.push_back(i);
  }
  const auto& signals = recorder.signals().signals();
  for (size_t i = 0; i < signals.size(); ++i) {
    auto& family =
        group_for(signal_families_, "flightrec_" + signals[i].desc.name, signals[i].desc);
    family.histogram = signals[i].histogram;
    family.signals.push_back(i);
  }
}

void SystemCollector::collect(Families& out) const {
  collect_raw(out);
  collect_aggregates(out);
  collect_histograms(out);
}

void SystemCollector::collect_raw(Families& out) const {
  sampler::FrameHeader header;
  std::vector<int64_t> values;
  if (!recorder_.latest(header, values)) return;
  for (const auto& plan : raw_) {
    MetricFamily family{
        plan.name, plan.help, plan.counter ? MetricType::Counter : MetricType::Gauge, {}};
    for (size_t i : plan.series) {
      if (values[i] == sampler::kAbsent) continue;
      ClientMetric metric;
      if (!series_labels(schema_[i], metric.label)) continue;
      const double v = static_cast<double>(values[i]) * schema_[i].scale;
      if (plan.counter) {
        metric.counter.value = v;
      } else {
        metric.gauge.value = v;
      }
      family.metric.push_back(std::move(metric));
    }
    if (!family.metric.empty()) out.add(std::move(family), plan.unit);
  }
}

void SystemCollector::collect_aggregates(Families& out) const {
  const auto aggregates = recorder_.window_stats().aggregates(out.now_mono_ns());
  // Read per scrape: export.window may have changed since the last one (a reload).
  const std::string window_label = config::format_duration(recorder_.window_stats().window());
  const auto& signals = recorder_.signals().signals();
  std::vector<ClientMetric::Label> labels;
  for (const auto& plan : signal_families_) {
    MetricFamily family{plan.name,
                        plan.help + " Min, max and mean of the per-tick values over the window.",
                        MetricType::Gauge,
                        {}};
    for (size_t i : plan.signals) {
      const auto& a = aggregates[i];
      if (a.count == 0 || !series_labels(signals[i].desc, labels)) continue;
      for (const auto& [agg, value] : {std::pair{"min", a.min}, {"max", a.max}, {"mean", a.mean}}) {
        ClientMetric metric;
        metric.label = labels;
        metric.label.push_back({"window", window_label});
        metric.label.push_back({"agg", agg});
        metric.gauge.value = value;
        family.metric.push_back(std::move(metric));
      }
    }
    if (!family.metric.empty()) out.add(std::move(family), plan.unit);
  }
}

void SystemCollector::collect_histograms(Families& out) const {
  const auto histograms = recorder_.window_stats().histograms();
  const auto& signals = recorder_.signals().signals();
  std::vector<ClientMetric::Label> labels;
  for (const auto& plan : signal_families_) {
    if (!plan.histogram) continue;
    MetricFamily family{
        histogram_name(plan.name.substr(std::string_view("flightrec_").size())),
        "Per-tick values of " + plan.name + " since start: one observation per sampler tick.",
        MetricType::Histogram,
        {}};
    for (size_t i : plan.signals) {
      const auto& h = histograms[i];
      if (!series_labels(signals[i].desc, labels)) continue;
      ClientMetric metric;
      metric.label = labels;
      metric.histogram.sample_count = h.count;
      metric.histogram.sample_sum = h.sum;
      for (size_t k = 0; k < recorder::kRatioBounds.size(); ++k) {
        metric.histogram.bucket.push_back({h.cumulative[k], recorder::kRatioBounds[k]});
      }
      metric.histogram.bucket.push_back({h.count, std::numeric_limits<double>::infinity()});
      family.metric.push_back(std::move(metric));
    }
    if (!family.metric.empty()) out.add(std::move(family), "ratio", /*created=*/true);
  }
}

}  // namespace flightrec::exporter::metrics
