#include "flightrec/common/version.h"
#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exposition/conversions.h"

namespace flightrec::exporter::metrics {

using exposition::Families;
using exposition::seconds;

void InstanceCollector::collect(Families& out) const {
  out.gauge("flightrec_build_info", "flightrec's version, revision and compiler; always 1.", "", 1,
            {{"version", std::string(kVersion)},
             {"revision", std::string(kRevision)},
             {"compiler", std::string(kCompiler)}});
  out.gauge("flightrec_start_time_seconds", "When this flightrec process started (Unix time).",
            "seconds", seconds(settings_.start_real_ns));
  out.gauge("flightrec_sampler_rate_seconds", "Period of the sampler's fast tier (sampler.rate).",
            "seconds", static_cast<double>(settings_.sampler_rate.count()) * 1e-9);
  out.gauge("flightrec_export_window_seconds", "Span of the window aggregates (export.window).",
            "seconds",
            settings_.export_window ? static_cast<double>(settings_.export_window().count()) * 1e-9
                                    : 0.0);
}

}  // namespace flightrec::exporter::metrics
