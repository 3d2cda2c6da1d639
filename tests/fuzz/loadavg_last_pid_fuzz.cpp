// parse_loadavg_last_pid on arbitrary /proc/loadavg text: it must never crash, and a PID it
// returns must be non-negative and be the input's last field.
// Seed corpus: tests/fixtures/proc-*/loadavg.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "flightrec/process/pid_allocation_watch.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes = flightrec::fuzz::as_text(data, size);
  const auto last_pid = flightrec::process::parse_loadavg_last_pid(bytes);
  if (!last_pid) return 0;
  if (*last_pid < 0 || bytes.find('/') == std::string_view::npos) __builtin_trap();
  const size_t end = bytes.find_last_not_of("\n ");
  if (end == std::string_view::npos) __builtin_trap();
  bytes = bytes.substr(0, end + 1);
  // Leading zeros aside, the last field is the number's decimal digits.
  const std::string digits = std::to_string(*last_pid);
  if (!bytes.ends_with(digits)) __builtin_trap();
  bytes.remove_suffix(digits.size());
  while (bytes.ends_with('0')) bytes.remove_suffix(1);
  if (*last_pid == 0 && bytes.ends_with('-')) bytes.remove_suffix(1);  // "-0" reads as 0
  if (!bytes.ends_with(' ')) __builtin_trap();
  return 0;
}
