#include "flightrec/trigger/manual_gate.h"

#include <catch2/catch.hpp>

using namespace std::chrono_literals;
using flightrec::trigger::ManualAdmission;
using flightrec::trigger::ManualTriggerGate;

namespace {
const ManualTriggerGate::Clock::time_point t0{1000s};
}

TEST_CASE("theFirstRequestIsAcceptedThenOthersJoinItWhilePendingThenWaitTheInterval",
          "[trigger][gate]") {
  ManualTriggerGate gate(5s, 60s);
  CHECK(gate.admit(t0).admission == ManualAdmission::accepted);

  const auto joined = gate.admit(t0 + 2s);
  CHECK(joined.admission == ManualAdmission::coalesced);
  CHECK(joined.wait == 3s);

  const auto refused = gate.admit(t0 + 20s);
  CHECK(refused.admission == ManualAdmission::refused);
  CHECK(refused.wait == 40s);

  // Refused and joined requests do not move the interval: it counts from the last accepted one.
  CHECK(gate.admit(t0 + 60s).admission == ManualAdmission::accepted);
  CHECK(gate.admit(t0 + 66s).admission == ManualAdmission::refused);

  CHECK(gate.count(ManualAdmission::accepted) == 2);
  CHECK(gate.count(ManualAdmission::coalesced) == 1);
  CHECK(gate.count(ManualAdmission::refused) == 2);
}

TEST_CASE("anIntervalOfZeroStillJoinsRequestsToThePendingIncident", "[trigger][gate]") {
  ManualTriggerGate gate(5s, 0s);
  CHECK(gate.admit(t0).admission == ManualAdmission::accepted);
  CHECK(gate.admit(t0 + 1s).admission == ManualAdmission::coalesced);
  CHECK(gate.admit(t0 + 5s).admission == ManualAdmission::accepted);
}
