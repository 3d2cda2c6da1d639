#include "flightrec/http/media_type.h"

#include <array>
#include <catch2/catch.hpp>
#include <string>
#include <string_view>

using flightrec::http::preferred_media_type;

namespace {

// As /incidents offers them: JSON, its default, first.
constexpr std::array<std::string_view, 2> kOffered{"application/json", "text/html"};

std::string chosen(std::string_view accept) {
  const auto index = preferred_media_type(accept, kOffered);
  return index ? std::string(kOffered[*index]) : "none";
}

}  // namespace

TEST_CASE("preferred_media_type picks HTML for browsers and JSON for curl and scripts",
          "[http][negotiation]") {
  const auto [accept, expected] = GENERATE(table<std::string, std::string>({
      // Firefox and Chromium navigating to a page.
      {"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "text/html"},
      {"text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,"
       "*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
       "text/html"},
      {"*/*", "application/json"},  // curl's default
      {"", "none"},                 // no header: the route's default
      {"application/json", "application/json"},
      {"text/html", "text/html"},
      {"TEXT/HTML", "text/html"},
      {"text/*", "text/html"},
      {"application/*", "application/json"},
      {"application/json;q=0.5, text/html", "text/html"},
      {"application/json, text/html;q=0.5", "application/json"},
      {"text/html;q=0.9, application/json;q=0.9", "text/html"},  // equal q: listed first
      {"application/json;q=0.9, text/html;q=0.9", "application/json"},
      {"text/html, */*;q=0.1", "text/html"},
      {"text/html;q=0.1, */*", "application/json"},  // json through */* at q=1
      {"text/html;q=0.5, */*;q=0.5", "text/html"},   // equal q: named beats wildcard
      {"text/html;q=0, */*", "application/json"},    // HTML refused
      {"application/json;q=0, */*", "text/html"},
      {"*/*;q=0", "none"},
      {"image/png", "none"},
      {"text/plain", "none"},
      {"text/html;level=1", "text/html"},                              // parameters are ignored
      {"text/html;q=nonsense, application/json", "application/json"},  // bad q: skipped
      {",,;,text/html", "text/html"},
      {"text", "none"},
  }));
  CAPTURE(accept);
  CHECK(chosen(accept) == expected);
}

TEST_CASE("preferred_media_type offers nothing when nothing is offered", "[http][negotiation]") {
  CHECK_FALSE(preferred_media_type("*/*", {}).has_value());
}
