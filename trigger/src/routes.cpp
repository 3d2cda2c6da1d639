#include "flightrec/trigger/routes.h"

#include <array>
#include <vector>

#include "flightrec/common/clock.h"
#include "flightrec/common/json_writer.h"
#include "flightrec/common/log.h"
#include "flightrec/http/media_type.h"
#include "flightrec/http/query_check.h"
#include "flightrec/http/request.h"

namespace flightrec::trigger {
namespace {

constexpr std::string_view kText = "text/plain; charset=utf-8";
// A reason is a note for the operator, not a payload: it is stored in every incident file and shown
// on one line, so a client cannot make each file megabytes larger with it.
constexpr size_t kMaxReasonBytes = 1024;

// Whole seconds, rounded up, as Retry-After wants them.
int64_t whole_seconds(std::chrono::nanoseconds wait) {
  return std::chrono::ceil<std::chrono::seconds>(wait).count();
}

// What the answer to an admitted request names: the incident it asked for, or joined.
struct Answer {
  std::string id;
  std::string_view admission;  // "accepted" or "coalesced"
  int64_t wait_seconds = 0;    // whole seconds until it appears at /incidents
  std::string text;            // the body for people
};

// The body as the client prefers it: text for people (and curl's */*), JSON for scripts that ask.
void send_answer(const http::Request& request, http::Response& response, const Answer& answer) {
  constexpr std::array<std::string_view, 2> kOffered{"text/plain", "application/json"};
  const std::string location = "/incidents/" + answer.id;
  const std::vector<http::Header> headers{{"Location", location}, {"Vary", "Accept"}};
  if (http::preferred_media_type(request.header("Accept").value_or(""), kOffered) == 1) {
    std::string body;
    JsonWriter json(body);
    json.begin_object();
    json.key("id").string(answer.id);
    json.key("status").string(answer.admission);
    json.key("location").string(location);
    json.key("ready_in_seconds").number(answer.wait_seconds);
    json.end_object();
    body += '\n';
    response.send(202, "application/json", body, headers);
    return;
  }
  response.send(202, kText, answer.text, headers);
}

void request_manual_incident(TriggerEngine& engine, ManualTriggerGate& gate,
                             const ManualIncidentId& incident_id, const http::Request& request,
                             http::Response& response) {
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
  const ManualDecision decision =
      gate.admit(ManualTriggerGate::Clock::now(), clock_ns(CLOCK_REALTIME));
  const std::string wait = std::to_string(whole_seconds(decision.wait));
  if (decision.admission == ManualAdmission::refused) {
    response.send(429, kText,
                  "manual incidents are limited to one per incidents.manual_interval; try again "
                  "in " +
                      wait + " s\n",
                  {{"Retry-After", wait}});
    return;
  }
  const std::string id = incident_id(decision.fired_at_ns);
  if (decision.admission == ManualAdmission::coalesced) {
    log::info("manual incident request joins the one pending", {{"reason", reason}, {"id", id}});
    send_answer(request, response,
                {.id = id,
                 .admission = admission_name(decision.admission),
                 .wait_seconds = whole_seconds(decision.wait),
                 .text = "a manual incident is already pending; this request joins it: " + id +
                         " (it appears at /incidents/" + id + " in " + wait + " s)\n"});
    return;
  }
  if (!engine.fire_manual(reason, decision.fired_at_ns)) {
    response.send(429, kText, "too many manual incidents waiting; try again shortly\n");
    return;
  }
  log::info("manual incident requested", {{"reason", reason}, {"id", id}});
  send_answer(request, response,
              {.id = id,
               .admission = admission_name(decision.admission),
               .wait_seconds = whole_seconds(decision.wait),
               .text = "incident requested: " + id + " (it appears at /incidents/" + id +
                       " once its post window ends, in " + wait + " s)\n"});
}

}  // namespace

http::Route manual_trigger_route(TriggerEngine& engine, ManualTriggerGate& gate,
                                 ManualIncidentId incident_id) {
  return {.path = "/-/trigger",
          .summary = "records a manual incident now and answers its id: ?reason=TEXT",
          .handler =
              [&engine, &gate, incident_id = std::move(incident_id)](const http::Request& request,
                                                                     http::Response& response) {
                request_manual_incident(engine, gate, incident_id, request, response);
              },
          .methods = {"POST"},
          .right = http::Right::capture};
}

}  // namespace flightrec::trigger
