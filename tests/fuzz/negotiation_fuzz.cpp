// negotiate (Accept) and accepts_gzip (Accept-Encoding) on arbitrary header text: they must never
// crash, must answer OpenMetrics or gzip only when the header asks for it by name or wildcard, and
// must not change their answer for an empty leading list element.
// Seed corpus: Accept and Accept-Encoding headers real scrapers and browsers send.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "flightrec/exposition/negotiation.h"
#include "flightrec/http/header_list.h"
#include "fuzz_check.h"

namespace exposition = flightrec::exposition;

namespace {

bool contains_ignoring_case(std::string_view text, std::string_view lower_word) {
  std::string lowered(text);
  for (char& c : lowered) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lowered.find(lower_word) != std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view header = flightrec::fuzz::as_text(data, size);
  const bool wildcard = header.find('*') != std::string_view::npos;

  const exposition::Format format = exposition::negotiate(header);
  if (format == exposition::Format::openmetrics_1_0_0 && !wildcard &&
      !contains_ignoring_case(header, "application/openmetrics-text")) {
    __builtin_trap();
  }
  // An empty element before the first one carries nothing (RFC 9110 5.6.1).
  const std::string with_empty_element = "," + std::string(header);
  if (exposition::negotiate(with_empty_element) != format) __builtin_trap();

  const bool gzip = flightrec::http::accepts_gzip(header);
  if (gzip && !wildcard && !contains_ignoring_case(header, "gzip")) __builtin_trap();
  if (flightrec::http::accepts_gzip(with_empty_element) != gzip) __builtin_trap();
  return 0;
}
