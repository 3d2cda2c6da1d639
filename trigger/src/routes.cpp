#include "flightrec/trigger/routes.h"

#include "flightrec/common/log.h"
#include "flightrec/http/query_check.h"
#include "flightrec/http/request.h"

namespace flightrec::trigger {
namespace {

constexpr std::string_view kText = "text/plain; charset=utf-8";
// A reason is a note for the operator, not a payload: it is stored in every incident file and shown
// on one line, so a client cannot make each file megabytes larger with it.
constexpr size_t kMaxReasonBytes = 1024;

void request_manual_incident(TriggerEngine& engine, const http::Request& request,
                             http::Response& response) {
  if (const auto error = http::check_query_names(request.query(), {"reason"}); !error.empty()) {
    response.send(400, kText, error + "\n");
    return;
  }
  // No reason given: the incident is simply "manual", with nothing to add to that.
  const std::string reason = request.param("reason").value_or("");
  if (reason.size() > kMaxReasonBytes) {
    response.send(400, kText,
                  "reason: " + std::to_string(reason.size()) + " bytes, at most " +
                      std::to_string(kMaxReasonBytes) + "\n");
    return;
  }
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
