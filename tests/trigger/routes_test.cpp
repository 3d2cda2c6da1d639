#include "flightrec/trigger/routes.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "curl.h"
#include "engine_fixture.h"
#include "flightrec/http/server.h"

using namespace std::chrono_literals;
using namespace flightrec;
using flightrec::testing::curl;

namespace {

// The engine behind a real server on loopback; `take` reads what the next frame would fire. The
// gate admits every request unless a test gives it a pending window or an interval.
struct TriggerServer {
  explicit TriggerServer(std::chrono::nanoseconds pending_for = 0ns,
                         std::chrono::nanoseconds min_interval = 0ns)
      : gate(pending_for, min_interval) {}

  trigger::testing::Host host;
  trigger::TriggerEngine engine{{}, host.signals, host.schema, 1ms};
  trigger::ManualTriggerGate gate;
  http::Server server{{.listen_address = "127.0.0.1:0"},
                      {trigger::manual_trigger_route(engine, gate, [](int64_t fired_at_ns) {
                        return "id-" + std::to_string(fired_at_ns);
                      })}};

  std::string post(const std::string& query) {
    return curl("-o /dev/null -w '%{http_code}' -X POST '" + server.url() + "-/trigger" + query +
                "'");
  }

  std::vector<std::string> take() {
    const sampler::FrameHeader header{0, 0, 1'700'000'000'000'000'000};
    const std::vector<int64_t> raw(trigger::testing::kRaw, 0);
    const std::vector<double> derived(trigger::testing::kDerived, 0.0);
    std::vector<std::string> reasons;
    requested_at.clear();
    for (const auto& firing : engine.evaluate(header, raw, derived)) {
      reasons.emplace_back(engine.manual_reason(firing.match));
      requested_at.push_back(engine.manual_requested_at(firing.match));
    }
    return reasons;
  }
  std::vector<int64_t> requested_at;  // of the requests take() read
};

}  // namespace

TEST_CASE("aManualTriggerPassesItsReasonAsSentAndNoneWhenLeftOut", "[trigger][routes]") {
  TriggerServer s;
  CHECK(s.post("?reason=deploy%20of%20v2.3") == "202");
  CHECK(s.post("") == "202");
  CHECK(s.take() == std::vector<std::string>{"deploy of v2.3", ""});
}

TEST_CASE("aReasonOverOneKibibyteIsRefusedAndFiresNothing", "[trigger][routes]") {
  TriggerServer s;
  CHECK(s.post("?reason=" + std::string(1024, 'a')) == "202");
  CHECK(s.post("?reason=" + std::string(1025, 'a')) == "400");
  CHECK(s.take().size() == 1);
  const std::string body =
      curl("-X POST '" + s.server.url() + "-/trigger?reason=" + std::string(2000, 'b') + "'");
  CHECK(body == "reason: 2000 bytes, at most 1024\n");
}

TEST_CASE("theTriggerRouteTakesOnlyPost", "[trigger][routes]") {
  TriggerServer s;
  CHECK(curl("-o /dev/null -w '%{http_code}' '" + s.server.url() + "-/trigger'") == "405");
  CHECK(s.take().empty());
}

TEST_CASE("aRequestWhileAManualIncidentIsPendingJoinsItAndFiresNothingMore", "[trigger][routes]") {
  TriggerServer s(60s, 60s);
  CHECK(s.post("?reason=first") == "202");
  const std::string joined = curl("-X POST '" + s.server.url() + "-/trigger?reason=second'");
  CHECK_THAT(joined, Catch::Matchers::StartsWith("a manual incident is already pending"));
  CHECK(s.take() == std::vector<std::string>{"first"});
  CHECK(s.gate.count(trigger::ManualAdmission::accepted) == 1);
  CHECK(s.gate.count(trigger::ManualAdmission::coalesced) == 1);
}

TEST_CASE("aRequestWithinTheIntervalIsRefusedWith429AndRetryAfter", "[trigger][routes]") {
  TriggerServer s(0ns, 60s);
  CHECK(s.post("") == "202");
  const std::string refused = curl("-i -X POST '" + s.server.url() + "-/trigger'");
  CHECK_THAT(refused, Catch::Matchers::StartsWith("HTTP/1.1 429"));
  CHECK_THAT(refused, Catch::Matchers::Contains("Retry-After: 60") ||
                          Catch::Matchers::Contains("Retry-After: 59"));
  CHECK_THAT(refused, Catch::Matchers::Contains("incidents.manual_interval"));
  CHECK(s.take().size() == 1);
  CHECK(s.gate.count(trigger::ManualAdmission::refused) == 1);
}

TEST_CASE("anAcceptedRequestAnswersTheIdItWillBeStoredUnderAndAJoinedOneTheSame",
          "[trigger][routes]") {
  TriggerServer s(60s, 60s);
  const std::string accepted = curl("-i -X POST '" + s.server.url() + "-/trigger?reason=first'");
  CHECK_THAT(accepted, Catch::Matchers::StartsWith("HTTP/1.1 202"));
  REQUIRE(s.take().size() == 1);
  // The route's id function got the time the engine fires the incident at.
  const std::string id = "id-" + std::to_string(s.requested_at.at(0));
  CHECK(s.requested_at[0] > 1'700'000'000'000'000'000);
  CHECK_THAT(accepted, Catch::Matchers::Contains("Location: /incidents/" + id + "\r\n"));
  CHECK_THAT(accepted,
             Catch::Matchers::EndsWith("incident requested: " + id + " (it appears at /incidents/" +
                                       id + " once its post window ends, in 60 s)\n"));
  const std::string joined = curl("-i -X POST '" + s.server.url() + "-/trigger?reason=second'");
  CHECK_THAT(joined, Catch::Matchers::Contains("Location: /incidents/" + id + "\r\n"));
  CHECK_THAT(joined, Catch::Matchers::Contains("this request joins it: " + id + " ("));
}

TEST_CASE("theTriggerAnswersJsonToAClientThatPrefersIt", "[trigger][routes]") {
  TriggerServer s(60s, 60s);
  const std::string accepted =
      curl("-H 'Accept: application/json' -X POST '" + s.server.url() + "-/trigger'");
  REQUIRE(s.take().size() == 1);
  const std::string id = "id-" + std::to_string(s.requested_at.at(0));
  CHECK(accepted == R"({"id":")" + id + R"(","status":"accepted","location":"/incidents/)" + id +
                        R"(","ready_in_seconds":60})" + "\n");
  const std::string joined = curl("-H 'Accept: application/json, text/plain;q=0.5' -X POST '" +
                                  s.server.url() + "-/trigger'");
  CHECK_THAT(joined, Catch::Matchers::StartsWith(R"({"id":")" + id + R"(","status":"coalesced")"));
  // curl's */* keeps the text.
  CHECK_THAT(curl("-X POST '" + s.server.url() + "-/trigger'"),
             Catch::Matchers::StartsWith("a manual incident is already pending"));
}
