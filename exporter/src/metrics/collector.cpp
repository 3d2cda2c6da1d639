#include "flightrec/exporter/metrics/collector.h"

#include <cmath>
#include <limits>

#include "flightrec/config/units.h"
#include "flightrec/sampler/slot_table.h"
#include "self_metrics.h"

namespace flightrec::exporter::metrics {
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

}  // namespace

bool series_labels(const sampler::SeriesDesc& desc, std::vector<ClientMetric::Label>& out) {
  out.clear();
  for (const auto& [k, v] : desc.labels) out.push_back({k, v});
  if (desc.keys != nullptr) {
    if (desc.key_slot >= desc.keys->bound()) return false;
    out.push_back({desc.key_label, std::string(desc.keys->name(desc.key_slot))});
  }
  return true;
}

Collector::Collector(CollectorInputs inputs)
    : in_(inputs),
      window_label_(config::format_duration(inputs.recorder->window_stats().window())) {
  const auto& schema = in_.sampler->schema();
  for (size_t i = 0; i < schema.size(); ++i) {
    auto& family = group_for(raw_, "flightrec_" + schema[i].name, schema[i]);
    family.counter = schema[i].kind == sampler::SeriesKind::counter;
    family.series.push_back(i);
  }
  const auto& signals = in_.recorder->signals().signals();
  for (size_t i = 0; i < signals.size(); ++i) {
    auto& family =
        group_for(signal_families_, "flightrec_" + signals[i].desc.name, signals[i].desc);
    family.histogram = signals[i].histogram;
    family.signals.push_back(i);
  }
}

void Collector::collect_raw(std::vector<MetricFamily>& families,
                            exposition::ExtrasByFamily& extras) const {
  sampler::FrameHeader header;
  std::vector<int64_t> values;
  if (!in_.recorder->latest(header, values)) return;
  const auto& schema = in_.sampler->schema();
  for (const auto& plan : raw_) {
    MetricFamily family{
        plan.name, plan.help, plan.counter ? MetricType::Counter : MetricType::Gauge, {}};
    for (size_t i : plan.series) {
      if (values[i] == sampler::kAbsent) continue;
      ClientMetric metric;
      if (!series_labels(schema[i], metric.label)) continue;
      const double v = static_cast<double>(values[i]) * schema[i].scale;
      if (plan.counter) {
        metric.counter.value = v;
      } else {
        metric.gauge.value = v;
      }
      family.metric.push_back(std::move(metric));
    }
    if (family.metric.empty()) continue;
    if (!plan.unit.empty()) extras[plan.name].unit = plan.unit;
    families.push_back(std::move(family));
  }
}

void Collector::collect_signals(int64_t now_mono_ns, std::vector<MetricFamily>& families,
                                exposition::ExtrasByFamily& extras) const {
  const auto& window_stats = in_.recorder->window_stats();
  const auto aggregates = window_stats.aggregates(now_mono_ns);
  const auto histograms = window_stats.histograms();
  const auto& signals = in_.recorder->signals().signals();
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
        metric.label.push_back({"window", window_label_});
        metric.label.push_back({"agg", agg});
        metric.gauge.value = value;
        family.metric.push_back(std::move(metric));
      }
    }
    if (!family.metric.empty()) {
      if (!plan.unit.empty()) extras[plan.name].unit = plan.unit;
      families.push_back(std::move(family));
    }
  }

  for (const auto& plan : signal_families_) {
    if (!plan.histogram) continue;
    const std::string name =
        histogram_name(plan.name.substr(std::string_view("flightrec_").size()));
    MetricFamily family{
        name,
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
    if (family.metric.empty()) continue;
    extras[name].unit = "ratio";
    extras[name].created_seconds.assign(family.metric.size(),
                                        static_cast<double>(in_.start_real_ns) * 1e-9);
    families.push_back(std::move(family));
  }
}

void Collector::collect(int64_t now_mono_ns, std::vector<MetricFamily>& families,
                        exposition::ExtrasByFamily& extras) const {
  collect_raw(families, extras);
  collect_signals(now_mono_ns, families, extras);
  if (in_.processes != nullptr) {
    in_.processes->collect(families, extras, static_cast<double>(in_.start_real_ns) * 1e-9);
  }
  collect_self(in_,
               {.last_duration_ns = last_scrape_ns_.load(std::memory_order_relaxed),
                .cpu_ns = scrape_cpu_ns_.load(std::memory_order_relaxed),
                .text = text_scrapes_.load(std::memory_order_relaxed),
                .openmetrics = openmetrics_scrapes_.load(std::memory_order_relaxed)},
               families, extras);
}

}  // namespace flightrec::exporter::metrics
