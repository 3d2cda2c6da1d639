#pragma once
// The "<key> <count>" line format of cpu.stat, cpuacct.stat, memory.stat, memory.events and
// memory.oom_control, read into a struct through a table of the keys wanted. Keys not in the
// table are skipped, as new kernels add lines; a wanted key with a value that is not a whole
// count is an error naming the line.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "flightrec/common/result.h"
#include "flightrec/sampler/sources/parsing.h"

namespace flightrec::container::detail {

template <typename T>
struct KeyedField {
  std::string_view key;
  int64_t T::*member;
  int64_t divisor = 1;  // the kernel's unit per the field's (ns to µs: 1000)
};

// "line 3 (\"nr_periods x\"): why", the line quoted and cut short.
std::string line_error(size_t line_number, std::string_view line, std::string_view why);

// "no field of <what> (a, b, c)".
std::string no_field_error(std::string_view what, const std::string_view* keys, size_t count);

// Reads `text` into a T; an error when a wanted key's value is malformed or no wanted key is there
// at all (the bytes are not the file they should be). `what` names the file in that message.
template <typename T, size_t N>
Result<T> parse_keyed(std::string_view text, const std::array<KeyedField<T>, N>& fields,
                      std::string_view what) {
  T out{};
  size_t found = 0;
  size_t line_number = 0;
  std::string_view line;
  while (sampler::parsing::next_line(text, line)) {
    ++line_number;
    std::string_view rest = line;
    const std::string_view key = sampler::parsing::next_token(rest);
    for (const KeyedField<T>& field : fields) {
      if (key != field.key) continue;
      int64_t value = 0;
      const bool whole = sampler::parsing::read_count(rest, value);
      sampler::parsing::skip_blanks(rest);
      if (!whole || !rest.empty()) {
        return Error{line_error(line_number, line, "the value is not a whole count")};
      }
      out.*field.member = value / field.divisor;
      ++found;
      break;
    }
  }
  if (found == 0) {
    std::array<std::string_view, N> keys{};
    for (size_t i = 0; i < N; ++i) keys[i] = fields[i].key;
    return Error{no_field_error(what, keys.data(), N)};
  }
  return out;
}

}  // namespace flightrec::container::detail
