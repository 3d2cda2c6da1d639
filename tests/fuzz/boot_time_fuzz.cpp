// parse_boot_time on arbitrary /proc/stat text: it must never crash, and a boot time it returns
// must be a number spelled out on a line starting with "btime ".
// Seed corpus: tests/fixtures/proc-*/stat.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "flightrec/process/boot_time.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes = flightrec::fuzz::as_text(data, size);
  const auto boot_time = flightrec::process::parse_boot_time(bytes);
  if (!boot_time) return 0;
  const bool on_first_line = bytes.starts_with("btime ");
  if (!on_first_line && bytes.find("\nbtime ") == std::string_view::npos) __builtin_trap();
  // The digits, that is: a sign may be separated from them by leading zeros.
  std::string digits = std::to_string(*boot_time);
  if (digits.starts_with('-')) digits.erase(0, 1);
  if (bytes.find(digits) == std::string_view::npos) __builtin_trap();
  return 0;
}
