// /dump's query values on arbitrary text: parse_time_param must never crash, must fail with a
// message naming the parameter, and must return only times the text could mean: "now" is now, a
// relative time is at or before now, Unix seconds are at or after the epoch. parse_dump_format
// must accept exactly json, csv and raw.
// Seed corpus: the forms docs/RECORDING_FORMAT.md documents for from= and to=.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "flightrec/recording/convert.h"
#include "flightrec/recording/time_param.h"
#include "fuzz_check.h"

namespace recording = flightrec::recording;

namespace {

constexpr int64_t kNow = 1'764'478'800'250'000'000;  // 2025-11-30T05:00:00.25Z

void check_time(std::string_view text) {
  const auto time = recording::parse_time_param("from", text, kNow);
  if (!time.ok()) {
    if (!time.error.starts_with("from: \"")) __builtin_trap();
    return;
  }
  if (text == "now" && time.real_ns != kNow) __builtin_trap();
  if (text.starts_with('-') && time.real_ns > kNow) __builtin_trap();
  const bool digits_first = !text.empty() && text.front() >= '0' && text.front() <= '9';
  const bool rfc3339 = text.size() > 4 && text[4] == '-';
  if (digits_first && !rfc3339 && time.real_ns < 0) __builtin_trap();
}

void check_format(std::string_view text) {
  const bool known = text == "json" || text == "csv" || text == "raw";
  if (recording::parse_dump_format(text).has_value() != known) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = flightrec::fuzz::as_text(data, size);
  check_time(text);
  check_format(text);
  return 0;
}
