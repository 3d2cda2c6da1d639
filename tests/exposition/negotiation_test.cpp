#include "flightrec/exposition/negotiation.h"

#include <catch2/catch.hpp>
#include <string>

using namespace flightrec::exposition;

namespace {

constexpr auto kText = Format::text_0_0_4;
constexpr auto kOpenMetrics = Format::openmetrics_1_0_0;

}  // namespace

TEST_CASE("negotiate follows the Accept headers real scrapers and clients send",
          "[exposition][negotiation]") {
  const auto [accept, expected] = GENERATE(table<std::string, Format>({
      // Prometheus 2.42 (Debian 12), scrape.go's fixed header.
      {"application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;"
       "q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
       kOpenMetrics},
      // Prometheus 2.49+ (scrape_protocols).
      {"application/openmetrics-text;version=1.0.0;q=0.5,application/openmetrics-text;"
       "version=0.0.1;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2",
       kOpenMetrics},
      // Prometheus 3.x defaults.
      {"application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.6,"
       "application/openmetrics-text;version=0.0.1;q=0.5,text/plain;version=1.0.0;"
       "escaping=allow-utf-8;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2",
       kOpenMetrics},
      // Prometheus 3.x with scrape_protocols putting text first.
      {"text/plain;version=1.0.0;escaping=allow-utf-8;q=0.6,text/plain;version=0.0.4;q=0.5,"
       "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.4,*/*;q=0.3",
       kText},
      {"*/*", kText},  // curl
      {"", kText},
      {"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", kText},  // a browser
      {"application/openmetrics-text", kOpenMetrics},
      {"application/openmetrics-text; version=\"1.0.0\"; charset=utf-8", kOpenMetrics},
      {"APPLICATION/OpenMetrics-Text;Version=0.0.1", kOpenMetrics},
      {"text/plain", kText},
      {"application/json", kText},
  }));
  CAPTURE(accept);
  CHECK(negotiate(accept) == expected);
}

TEST_CASE("negotiate honours q-values and refusals", "[exposition][negotiation]") {
  const auto [accept, expected] = GENERATE(table<std::string, Format>({
      {"application/openmetrics-text;q=0", kText},
      {"application/openmetrics-text;q=0.000,*/*", kText},
      {"text/plain;q=0,*/*", kOpenMetrics},
      {"text/plain;version=0.0.4;q=0.9,application/openmetrics-text;version=1.0.0;q=0.5", kText},
      {"text/plain;q=0.5,application/openmetrics-text;q=0.9", kOpenMetrics},
      {"*/*;q=0.9,text/plain;q=0.1", kOpenMetrics},        // the specific range sets text's q
      {"*/*,application/openmetrics-text", kOpenMetrics},  // equal q: the named one wins
      {"text/plain,application/openmetrics-text", kText},  // equal q, both named: the first
      {"application/openmetrics-text,text/plain", kOpenMetrics},
      {"application/*", kOpenMetrics},
      {"text/*;q=0.9,application/*;q=0.8", kText},
  }));
  CAPTURE(accept);
  CHECK(negotiate(accept) == expected);
}

TEST_CASE("negotiate ignores versions it cannot produce and unreadable input",
          "[exposition][negotiation]") {
  const auto [accept, expected] = GENERATE(table<std::string, Format>({
      {"application/openmetrics-text;version=2.0.0", kText},
      {"application/openmetrics-text;version=2.0.0,*/*;q=0.1", kText},
      {"text/plain;version=0.0.5,application/openmetrics-text;q=0.1", kOpenMetrics},
      {"application/openmetrics-text;q=banana", kText},
      {"application/openmetrics-text;q=1.5", kText},
      {"application/openmetrics-text;version", kText},
      {";;;,,,", kText},
      {"\x01\xff garbage \"unterminated", kText},
      {",  ,application/openmetrics-text;;", kOpenMetrics},
  }));
  CAPTURE(accept);
  CHECK(negotiate(accept) == expected);
}

TEST_CASE("content_type names each format with its version and charset",
          "[exposition][negotiation]") {
  CHECK(content_type(kText) == "text/plain; version=0.0.4; charset=utf-8");
  CHECK(content_type(kOpenMetrics) == "application/openmetrics-text; version=1.0.0; charset=utf-8");
}
