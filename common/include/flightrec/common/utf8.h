#pragma once
// UTF-8 validation shared by the JSON writer and the terminal-safe text (printable.h).
#include <cstddef>
#include <string_view>

namespace flightrec {

// Length (1 to 4) of the well-formed UTF-8 sequence starting at text[pos], or 0 when the bytes
// there are not one (stray continuation byte, overlong form, surrogate, above U+10FFFF, cut short).
size_t utf8_sequence_length(std::string_view text, size_t pos) noexcept;

}  // namespace flightrec
