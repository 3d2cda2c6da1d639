// Feeds arbitrary bytes to the config loader: it must never crash, hang or throw, and must return
// either a Config or at least one error. The same bytes also exercise the unit parsers, whose
// canonical spelling must parse back to the value it spells.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "flightrec/config/loader.h"
#include "flightrec/config/units.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);

  flightrec::config::LoadResult result = flightrec::config::load_from_string(text, "fuzz.yaml");
  if (result.config.has_value() == !result.errors.empty()) __builtin_trap();

  if (auto duration = flightrec::config::parse_duration(text)) {
    if (flightrec::config::parse_duration(flightrec::config::format_duration(*duration)) !=
        duration) {
      __builtin_trap();
    }
  }
  if (auto size_value = flightrec::config::parse_size(text)) {
    if (flightrec::config::parse_size(flightrec::config::format_size(*size_value)) != size_value) {
      __builtin_trap();
    }
  }
  return 0;
}
