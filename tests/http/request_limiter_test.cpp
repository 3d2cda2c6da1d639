#include "flightrec/http/request_limiter.h"

#include <catch2/catch.hpp>
#include <vector>

using flightrec::http::RequestLimiter;

TEST_CASE("RequestLimiter admits up to its limit per route, then refuses until one leaves",
          "[http]") {
  RequestLimiter limiter(2, 0);
  const int metrics = 0;
  const int dump = 0;
  auto first = limiter.enter(&metrics, false);
  {
    auto second = limiter.enter(&metrics, false);
    CHECK(first.admitted());
    CHECK(second.admitted());
    CHECK_FALSE(limiter.enter(&metrics, false).admitted());
    CHECK(limiter.in_flight(&metrics) == 2);
    CHECK(limiter.enter(&dump, false).admitted());  // another route has its own count
  }
  CHECK(limiter.in_flight(&metrics) == 1);
  CHECK(limiter.enter(&metrics, false).admitted());
  CHECK(limiter.in_flight(&dump) == 0);
}

TEST_CASE("RequestLimiter refused slots take no place, and a moved slot leaves once", "[http]") {
  RequestLimiter limiter(1, 0);
  const int route = 0;
  std::vector<RequestLimiter::Slot> held;
  held.push_back(limiter.enter(&route, false));
  for (int i = 0; i < 5; ++i) CHECK_FALSE(limiter.enter(&route, false).admitted());
  CHECK(limiter.in_flight(&route) == 1);
  held.reserve(10);  // moves the slot
  CHECK(limiter.in_flight(&route) == 1);
  held.clear();
  CHECK(limiter.in_flight(&route) == 0);
}

TEST_CASE("RequestLimiter with limit 0 admits everything", "[http]") {
  RequestLimiter limiter(0, 0);
  const int route = 0;
  std::vector<RequestLimiter::Slot> held;
  for (int i = 0; i < 1000; ++i) {
    held.push_back(limiter.enter(&route, false));
    CHECK(held.back().admitted());
  }
  CHECK(limiter.in_flight(&route) == 1000);
}

TEST_CASE("RequestLimiter takes a new limit for the requests that come after it", "[http]") {
  RequestLimiter limiter(2, 0);
  const int route = 0;
  std::vector<RequestLimiter::Slot> held;
  held.push_back(limiter.enter(&route, false));
  held.push_back(limiter.enter(&route, false));
  CHECK_FALSE(limiter.enter(&route, false).admitted());
  limiter.set_limit(3);  // a reload raises it: one more fits
  held.push_back(limiter.enter(&route, false));
  CHECK(held.back().admitted());
  limiter.set_limit(1);  // lowered below what is in flight: those stay, no new one
  CHECK(limiter.in_flight(&route) == 3);
  CHECK_FALSE(limiter.enter(&route, false).admitted());
  held.clear();
  CHECK(limiter.enter(&route, false).admitted());
}

TEST_CASE("The shared routes also share one bound; the others do not count toward it", "[http]") {
  RequestLimiter limiter(2, 3);
  const int dump = 0;
  const int incident = 0;
  const int metrics = 0;
  std::vector<RequestLimiter::Slot> held;
  held.push_back(limiter.enter(&dump, true));
  held.push_back(limiter.enter(&dump, true));
  held.push_back(limiter.enter(&incident, true));
  // Each of the two routes is under its own limit of 2, but together they hold all 3.
  CHECK_FALSE(limiter.enter(&incident, true).admitted());
  CHECK(limiter.in_flight(&incident) == 1);  // the refusal took no place
  CHECK(limiter.enter(&metrics, false).admitted());
  held.pop_back();
  CHECK(limiter.enter(&incident, true).admitted());
}
