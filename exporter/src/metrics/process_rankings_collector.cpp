#include "flightrec/exporter/metrics/collectors.h"

namespace flightrec::exporter::metrics {

using exposition::Families;

void ProcessRankingsCollector::collect(Families& out) const {
  processes_.collect(out.families(), out.extras(), out.created_seconds());
}

}  // namespace flightrec::exporter::metrics
