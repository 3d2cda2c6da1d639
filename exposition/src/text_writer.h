#pragma once
// Prometheus text 0.0.4, written by prometheus-cpp's TextSerializer.
#include <prometheus/metric_family.h>

#include <string>
#include <vector>

#include "family_selection.h"

namespace flightrec::exposition::detail {

// Appends the selected families to `out`. `all` is the input the selection was made from: when
// nothing was dropped and nothing needs rewriting it goes to the serializer as is, uncopied.
void write_text(const std::vector<prometheus::MetricFamily>& all, const FamilySelection& selection,
                std::string& out);

}  // namespace flightrec::exposition::detail
