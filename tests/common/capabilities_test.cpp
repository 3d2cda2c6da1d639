#include "flightrec/common/capabilities.h"

#include <linux/capability.h>

#include <catch2/catch.hpp>

#include "without_capabilities.h"

using namespace flightrec;

TEST_CASE("capabilities are named as a sentence lists them", "[capabilities]") {
  CHECK(capabilities::names_of({CAP_BPF}) == "CAP_BPF");
  CHECK(capabilities::names_of({CAP_BPF, CAP_PERFMON}) == "CAP_BPF and CAP_PERFMON");
  CHECK(capabilities::names_of({CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN}) ==
        "CAP_BPF, CAP_PERFMON and CAP_NET_ADMIN");
  CHECK(capabilities::name_of(CAP_CHOWN) == "capability 0");
}

TEST_CASE("missing names only the capabilities the effective set lacks", "[capabilities]") {
  const std::string answer = testing::in_child_without({CAP_BPF, CAP_NET_ADMIN}, [] {
    return capabilities::missing({CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN}) + "|" +
           capabilities::missing({CAP_BPF}) + "|" + capabilities::missing({});
  });
  REQUIRE(answer != "setup failed");
  if (capabilities::holds(CAP_PERFMON)) {
    CHECK(answer == "CAP_BPF and CAP_NET_ADMIN|CAP_BPF|");
  } else {  // not root: CAP_PERFMON is missing too
    CHECK(answer == "CAP_BPF, CAP_PERFMON and CAP_NET_ADMIN|CAP_BPF|");
  }
}
