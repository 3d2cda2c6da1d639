#pragma once
// OpenMetrics 1.0.0 text writer (https://prometheus.io/docs/specs/om/open_metrics_spec/).
#include <string>
#include <vector>

#include "family_selection.h"
#include "flightrec/exposition/serialize.h"

namespace flightrec::exposition::detail {

// Appends the selected families and the closing "# EOF\n" to `out`; adds a warning for each
// extra (unit, created times) that could not be written.
void write_openmetrics(const FamilySelection& selection, const ExtrasByFamily& extras,
                       std::string& out, std::vector<std::string>& warnings);

}  // namespace flightrec::exposition::detail
