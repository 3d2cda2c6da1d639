#pragma once
// What every parser promises whatever the bytes: values are counts the kernel printed (>= 0) or
// kAbsent, and a parse that fails says why on one line. A broken promise stops the fuzzer like a
// crash would.
#include <cstdint>
#include <span>
#include <string_view>

#include "flightrec/common/result.h"
#include "flightrec/sampler/series.h"

namespace flightrec::fuzz {

inline void check_values(std::span<const int64_t> values) {
  for (const int64_t value : values) {
    if (value < 0 && value != sampler::kAbsent) __builtin_trap();
  }
}

// A failed Result's message is there and is one line.
template <typename T>
void check_error(const Result<T>& result) {
  if (result.ok()) return;
  if (result.error().empty() || result.error().find('\n') != std::string_view::npos) {
    __builtin_trap();
  }
}

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace flightrec::fuzz
