#include "flightrec/trigger/manual_gate.h"

#include <catch2/catch.hpp>

using namespace std::chrono_literals;
using flightrec::trigger::ManualAdmission;
using flightrec::trigger::ManualTriggerGate;

namespace {
const ManualTriggerGate::Clock::time_point t0{1000s};
// The real time of a request `since` after t0's.
int64_t real(std::chrono::nanoseconds since) { return 1'700'000'000'000'000'000 + since.count(); }
}  // namespace

TEST_CASE("theFirstRequestIsAcceptedThenOthersJoinItWhilePendingThenWaitTheInterval",
          "[trigger][gate]") {
  ManualTriggerGate gate(5s, 60s);
  const auto accepted = gate.admit(t0, real(0s));
  CHECK(accepted.admission == ManualAdmission::accepted);
  CHECK(accepted.wait == 5s);
  CHECK(accepted.fired_at_ns == real(0s));

  // A joined request is told the pending incident's time, which names it.
  const auto joined = gate.admit(t0 + 2s, real(2s));
  CHECK(joined.admission == ManualAdmission::coalesced);
  CHECK(joined.wait == 3s);
  CHECK(joined.fired_at_ns == real(0s));

  const auto refused = gate.admit(t0 + 20s, real(20s));
  CHECK(refused.admission == ManualAdmission::refused);
  CHECK(refused.wait == 40s);
  CHECK(refused.fired_at_ns == 0);

  // Refused and joined requests do not move the interval: it counts from the last accepted one.
  CHECK(gate.admit(t0 + 60s, real(60s)).fired_at_ns == real(60s));
  CHECK(gate.admit(t0 + 66s, real(66s)).admission == ManualAdmission::refused);

  CHECK(gate.count(ManualAdmission::accepted) == 2);
  CHECK(gate.count(ManualAdmission::coalesced) == 1);
  CHECK(gate.count(ManualAdmission::refused) == 2);
}

TEST_CASE("anIntervalOfZeroStillJoinsRequestsToThePendingIncident", "[trigger][gate]") {
  ManualTriggerGate gate(5s, 0s);
  CHECK(gate.admit(t0, real(0s)).admission == ManualAdmission::accepted);
  CHECK(gate.admit(t0 + 1s, real(1s)).admission == ManualAdmission::coalesced);
  CHECK(gate.admit(t0 + 5s, real(5s)).admission == ManualAdmission::accepted);
}
