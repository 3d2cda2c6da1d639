#include "valid_text.h"

#include <algorithm>

#include "flightrec/common/utf8.h"

namespace flightrec::exposition::detail {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using Labels = std::vector<ClientMetric::Label>;

bool values_valid(const Labels& labels) {
  return std::all_of(labels.begin(), labels.end(),
                     [](const ClientMetric::Label& label) { return is_valid_utf8(label.value); });
}

bool family_valid(const MetricFamily& family) {
  return is_valid_utf8(family.help) &&
         std::all_of(family.metric.begin(), family.metric.end(),
                     [](const ClientMetric& metric) { return values_valid(metric.label); });
}

bool exemplars_valid(const ExtrasByFamily::value_type& named) {
  const auto& exemplars = named.second.exemplars;
  return std::all_of(exemplars.begin(), exemplars.end(),
                     [](const auto& indexed) { return values_valid(indexed.second.labels); });
}

void make_values_valid(Labels& labels) {
  for (auto& label : labels) label.value = valid_utf8(label.value);
}

}  // namespace

ValidText::ValidText(const std::vector<MetricFamily>& families, const ExtrasByFamily& extras)
    : families_(&families), extras_(&extras) {
  if (!std::all_of(families.begin(), families.end(), family_valid)) {
    repaired_families_ = families;
    for (auto& family : repaired_families_) {
      family.help = valid_utf8(family.help);
      for (auto& metric : family.metric) make_values_valid(metric.label);
    }
    families_ = &repaired_families_;
  }
  if (!std::all_of(extras.begin(), extras.end(), exemplars_valid)) {
    repaired_extras_ = extras;
    for (auto& [name, family_extras] : repaired_extras_) {
      for (auto& [index, exemplar] : family_extras.exemplars) make_values_valid(exemplar.labels);
    }
    extras_ = &repaired_extras_;
  }
}

}  // namespace flightrec::exposition::detail
