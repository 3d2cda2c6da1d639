#include "flightrec/trigger/routes.h"

#include "flightrec/common/log.h"
#include "flightrec/http/query_check.h"
#include "flightrec/http/request.h"

namespace flightrec::trigger {
namespace {

constexpr std::string_view kText = "text/plain; charset=utf-8";

void request_manual_incident(TriggerEngine& engine, const http::Request& request,
                             http::Response& response) {
  if (const auto error = http::check_query_names(request.query(), {"reason"}); !error.empty()) {
    response.send(400, kText, error + "\n");
    return;
  }
  const std::string reason = request.param("reason").value_or("manual");
  if (!engine.fire_manual(reason)) {
    response.send(429, kText, "too many manual incidents waiting; try again shortly\n");
    return;
  }
  log::info("manual incident requested", {{"reason", reason}});
  response.send(202, kText,
                "incident requested; it appears at /incidents once its post window ends\n");
}

}  // namespace

http::Route manual_trigger_route(TriggerEngine& engine) {
  return {.path = "/-/trigger",
          .handler =
              [&engine](const http::Request& request, http::Response& response) {
                request_manual_incident(engine, request, response);
              },
          .methods = {"POST"},
          .right = http::Right::capture};
}

}  // namespace flightrec::trigger
