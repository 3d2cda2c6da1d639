#pragma once
// The two exposition formats /metrics can answer in, and the Content-Type each is served with.
#include <string_view>

namespace flightrec::exposition {

enum class Format {
  text_0_0_4,         // Prometheus text format 0.0.4 (the default for every client)
  openmetrics_1_0_0,  // OpenMetrics 1.0.0 text, only when the client asks for it
};

// "text/plain; version=0.0.4; charset=utf-8" or
// "application/openmetrics-text; version=1.0.0; charset=utf-8".
std::string_view content_type(Format format);

}  // namespace flightrec::exposition
