#pragma once
// The naming and de-duplication rules both formats share, so that a scrape in either format
// carries the same families under the same sample names.
#include <prometheus/metric_family.h>

#include <string>
#include <string_view>
#include <vector>

namespace flightrec::exposition::detail {

inline constexpr std::string_view kTotalSuffix = "_total";

// The OpenMetrics MetricFamily name: a counter's name without `_total`, any other name as is.
std::string_view openmetrics_family_name(const prometheus::MetricFamily& family);

// A counter whose name lacks `_total`: its samples need the suffix added.
bool counter_lacks_total_suffix(const prometheus::MetricFamily& family);

// Not a Result: what is kept is written even when some families were dropped.
struct FamilySelection {
  std::vector<const prometheus::MetricFamily*> kept;  // in input order
  std::vector<std::string> warnings;                  // one per dropped family
};

// Keeps the first family of each OpenMetrics name and drops later ones: "x_total" (counter) and
// "x" (gauge) collide too, since both would be family "x" in OpenMetrics.
FamilySelection select_families(const std::vector<prometheus::MetricFamily>& families);

}  // namespace flightrec::exposition::detail
