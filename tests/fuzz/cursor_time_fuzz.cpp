// parse_cursor_time (the times replay's --at and its "go to time" prompt accept) on arbitrary
// text: it must never crash, must fail with a message naming the text, and must return only times
// the text could mean: start and end are the recording's, "+D" is at or after the start, a bare
// time of day falls within a day of the recording.
// Seed corpus: the forms parse_cursor_time's error message lists.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "flightrec/replay/model.h"
#include "fuzz_check.h"

namespace {

constexpr int64_t kStart = 1'764'478'800'000'000'000;  // 2025-11-30T05:00:00Z
constexpr int64_t kEnd = kStart + 600'000'000'000;
constexpr int64_t kDay = 86'400'000'000'000;
constexpr int64_t kSecond = 1'000'000'000;

bool looks_like_time_of_day(std::string_view text) {
  return text.size() >= 8 && text[2] == ':' && text[5] == ':';
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = flightrec::fuzz::as_text(data, size);
  const auto cursor = flightrec::replay::parse_cursor_time(text, kStart, kEnd);
  if (!cursor.ok()) {
    if (!cursor.error().starts_with("time: \"" + std::string(text) + "\"")) __builtin_trap();
    return 0;
  }
  if (text == "start" && *cursor != kStart) __builtin_trap();
  if (text == "end" && *cursor != kEnd) __builtin_trap();
  if (text.starts_with('+') && *cursor < kStart) __builtin_trap();
  if (text.starts_with('-') && *cursor > kEnd) __builtin_trap();
  // A leap second (":60") may land one second past the day.
  if (looks_like_time_of_day(text) &&
      (*cursor < kStart - kDay - kSecond || *cursor > kEnd + kDay + kSecond)) {
    __builtin_trap();
  }
  return 0;
}
