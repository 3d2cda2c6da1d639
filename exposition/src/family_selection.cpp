#include "family_selection.h"

#include <unordered_set>

namespace flightrec::exposition::detail {
namespace {

bool ends_with_total(std::string_view name) {
  return name.size() > kTotalSuffix.size() && name.ends_with(kTotalSuffix);
}

}  // namespace

std::string_view openmetrics_family_name(const prometheus::MetricFamily& family) {
  const std::string_view name = family.name;
  if (family.type == prometheus::MetricType::Counter && ends_with_total(name)) {
    return name.substr(0, name.size() - kTotalSuffix.size());
  }
  return name;
}

bool counter_lacks_total_suffix(const prometheus::MetricFamily& family) {
  return family.type == prometheus::MetricType::Counter && !ends_with_total(family.name);
}

FamilySelection select_families(const std::vector<prometheus::MetricFamily>& families) {
  FamilySelection selection;
  selection.kept.reserve(families.size());
  std::unordered_set<std::string_view> seen;
  seen.reserve(families.size());
  for (const auto& family : families) {
    const auto name = openmetrics_family_name(family);
    if (seen.insert(name).second) {
      selection.kept.push_back(&family);
    } else {
      selection.warnings.push_back("family '" + family.name + "' repeats the name '" +
                                   std::string(name) + "' of an earlier family; dropped");
    }
  }
  return selection;
}

}  // namespace flightrec::exposition::detail
