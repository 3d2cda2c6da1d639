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

// Whole seconds, rounded up, as Retry-After wants them.
std::string whole_seconds(std::chrono::nanoseconds wait) {
  return std::to_string(std::chrono::ceil<std::chrono::seconds>(wait).count());
}

void request_manual_incident(TriggerEngine& engine, ManualTriggerGate& gate,
                             const http::Request& request, http::Response& response) {
  if (const Status names = http::check_query_names(request.query(), {"reason"}); !names) {
    response.send(400, kText, names.error() + "\n");
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
  const ManualDecision decision = gate.admit(ManualTriggerGate::Clock::now());
  if (decision.admission == ManualAdmission::coalesced) {
    log::info("manual incident request joins the one pending", {{"reason", reason}});
    response.send(202, kText,
                  "a manual incident is already pending; this request joins it (it appears at "
                  "/incidents in " +
                      whole_seconds(decision.wait) + " s)\n");
    return;
  }
  if (decision.admission == ManualAdmission::refused) {
    const std::string wait = whole_seconds(decision.wait);
    response.send(429, kText,
                  "manual incidents are limited to one per incidents.manual_interval; try again "
                  "in " +
                      wait + " s\n",
                  {{"Retry-After", wait}});
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

http::Route manual_trigger_route(TriggerEngine& engine, ManualTriggerGate& gate) {
  return {.path = "/-/trigger",
          .summary = "records a manual incident now: ?reason=TEXT",
          .handler =
              [&engine, &gate](const http::Request& request, http::Response& response) {
                request_manual_incident(engine, gate, request, response);
              },
          .methods = {"POST"},
          .right = http::Right::capture};
}

}  // namespace flightrec::trigger
