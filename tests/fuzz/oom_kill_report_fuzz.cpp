#include <cstddef>
#include <cstdint>
#include <string_view>

#include "flightrec/trigger/oom/oom_kill_report.h"
#include "fuzz_check.h"

// Feeds the input as kernel log records, one per line, through one parser.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  flightrec::trigger::oom::OomKillParser parser;
  std::string_view text = flightrec::fuzz::as_text(data, size);
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const auto kill = parser.feed(text.substr(0, end));
    if (kill && kill->pid <= 0) __builtin_trap();  // a kill always names a real pid
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
  return 0;
}
