#include <string>

#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exposition/conversions.h"

namespace flightrec::exporter::metrics {

using exposition::as_double;
using exposition::Families;

void HttpCollector::collect(Families& out) const {
  const std::string requests_help =
      "HTTP responses, by route pattern (\"none\": no route matched, or civetweb refused the "
      "request before routing) and status code.";
  for (const auto& responses : stats_.responses()) {
    out.counter("flightrec_http_requests_total", requests_help, "", as_double(responses.count),
                {{"handler", responses.handler}, {"code", std::to_string(responses.code)}});
  }
  out.counter("flightrec_http_gate_connections_accepted_total",
              "Connections the connection gate accepted.", "", as_double(stats_.accepted()));
  for (const auto& [reason, name] : http::kGateCloseLabels) {
    out.counter("flightrec_http_gate_connections_closed_total",
                "Connections the connection gate closed, by why.", "",
                as_double(stats_.closes(reason)), {{"reason", std::string(name)}});
  }
  for (const auto& [reason, name] : http::kAuthFailureLabels) {
    out.counter("flightrec_http_auth_failures_total",
                "Credentials refused: basic auth (401, or 503 when throttled) or the client "
                "certificate (the TLS handshake), by why.",
                "", as_double(stats_.auth_failures(reason)), {{"reason", std::string(name)}});
  }
}

}  // namespace flightrec::exporter::metrics
