#include <catch2/catch.hpp>
#include <string>

#include "flightrec/http/header_list.h"

using flightrec::http::accepts_gzip;

TEST_CASE("accepts_gzip honours q=0, * and identity, for every route that compresses",
          "[http][encoding]") {
  const auto [accept_encoding, expected] = GENERATE(table<std::string, bool>({
      {"gzip", true},                     // Prometheus
      {"deflate, gzip, br, zstd", true},  // curl --compressed
      {"gzip, deflate", true},
      {"x-gzip", true},
      {"GZIP;q=0.5", true},
      {"*", true},
      {"", false},
      {"identity", false},  // Prometheus with enable_compression: false
      {"deflate, br", false},
      {"gzip;q=0", false},
      {"gzip;q=0, *", false},
      {"*;q=0", false},
      {"*;q=0, gzip", true},
      {"gzip;q=0.5, identity;q=0.9", false},
      {"gzip;q=0.9, identity;q=0.5", true},
      {"gzip, identity", true},
      {"gzip;q=nonsense", false},
  }));
  CAPTURE(accept_encoding);
  CHECK(accepts_gzip(accept_encoding) == expected);
}
