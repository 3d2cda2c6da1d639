#include "flightrec/config/listen_address.h"

#include <catch2/catch.hpp>

using flightrec::config::ListenAddress;
using flightrec::config::parse_listen_address;

TEST_CASE("listen addresses split into host and port", "[listen_address]") {
  CHECK(parse_listen_address("127.0.0.1:9717") == ListenAddress{"127.0.0.1", 9717, false});
  CHECK(parse_listen_address("[::1]:9717") == ListenAddress{"::1", 9717, true});
  CHECK(parse_listen_address("[::]:0") == ListenAddress{"::", 0, true});
  CHECK(parse_listen_address("localhost:65535") == ListenAddress{"localhost", 65535, false});
  CHECK(parse_listen_address("metrics-1.example.org:80") ==
        ListenAddress{"metrics-1.example.org", 80, false});
}

TEST_CASE("listen addresses without a valid host or port are rejected", "[listen_address]") {
  for (const char* bad : {"",
                          "9717",
                          ":9717",
                          "127.0.0.1",
                          "127.0.0.1:",
                          "127.0.0.1:65536",
                          "127.0.0.1:-1",
                          "127.0.0.1:http",
                          "127.0.0.1:99999999",
                          "::1:9717",
                          "[::1]",
                          "[::1]9717",
                          "[nope]:9717",
                          "[127.0.0.1]:9717",
                          "999.1.1.1:80",
                          "1.2.3:80",
                          "-host:80",
                          "host-:80",
                          "a..b:80",
                          "host name:80",
                          "host.:80"}) {
    INFO("input: " << bad);
    CHECK_FALSE(parse_listen_address(bad).has_value());
  }
}
