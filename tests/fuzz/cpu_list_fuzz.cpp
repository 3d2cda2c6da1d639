#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "flightrec/sampler/cpu_list.h"
#include "fuzz_check.h"

// Whatever the bytes: a list accepted is non-empty, ascending without repeats and within the
// limit; a list refused says why.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  constexpr uint32_t kMaxId = 1023;
  const auto ids = flightrec::sampler::parse_cpu_list(flightrec::fuzz::as_text(data, size), kMaxId);
  if (ids) {
    if (ids->empty() || ids->back() > kMaxId) __builtin_trap();
    if (std::adjacent_find(ids->begin(), ids->end(), std::greater_equal<>()) != ids->end()) {
      __builtin_trap();
    }
  } else if (ids.error().empty()) {
    __builtin_trap();
  }
  return 0;
}
