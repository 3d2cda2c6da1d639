// Times as common/time_format.h reads them (RFC 3339, Unix seconds), on arbitrary text. The
// readers must never crash; a failure's reason is empty (not a time at all) or one of the reasons
// they give; a success has no reason; a URL query's form takes every text the written form takes,
// as the same time, and gives a well-formed text the same reason; and every time read is written
// by format_rfc3339_ms as a text that reads back as that time floored to the millisecond.
// Seed corpus: the senders' forms (Go's RFC3339Nano), /dump's, the range's ends, a leap second.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "flightrec/common/time_format.h"
#include "fuzz_check.h"

namespace {

using flightrec::format_rfc3339_ms;
using flightrec::parse_rfc3339_ns;
using flightrec::Rfc3339Source;

constexpr int64_t kNsPerMs = 1'000'000;

bool known_reason(std::string_view reason) {
  return reason.empty() || reason.starts_with("month ") || reason.starts_with("day ") ||
         reason == "time of day out of range" || reason == "offset out of range" ||
         reason.starts_with("out of range: ") || reason.starts_with("fraction out of range: ");
}

int64_t floor_to_ms(int64_t ns) {
  const int64_t remainder = ns % kNsPerMs;
  return ns - remainder - (remainder < 0 ? kNsPerMs : 0);
}

void check_written_back(int64_t ns) {
  if (parse_rfc3339_ns(format_rfc3339_ms(ns)) != floor_to_ms(ns)) __builtin_trap();
}

void check_rfc3339(std::string_view text) {
  std::string reason;
  const auto as_written = parse_rfc3339_ns(text, &reason);
  if (!known_reason(reason) || (as_written && !reason.empty())) __builtin_trap();
  std::string query_reason;
  const auto from_query = parse_rfc3339_ns(text, &query_reason, Rfc3339Source::url_query);
  if (!known_reason(query_reason) || (from_query && !query_reason.empty())) __builtin_trap();
  if (as_written && from_query != as_written) __builtin_trap();
  if (!reason.empty() && query_reason != reason) __builtin_trap();
  if (from_query) check_written_back(*from_query);
}

void check_unix_seconds(std::string_view text) {
  std::string reason;
  const auto ns = flightrec::parse_unix_seconds_ns(text, &reason);
  if (!known_reason(reason) || (ns && !reason.empty())) __builtin_trap();
  if (!ns) return;
  if (*ns < 0) __builtin_trap();
  check_written_back(*ns);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = flightrec::fuzz::as_text(data, size);
  check_rfc3339(text);
  check_unix_seconds(text);
  return 0;
}
