#pragma once
// UTF-8 validation shared by the JSON writer, the terminal-safe text (printable.h) and the
// Prometheus exposition, which must never write anything else.
#include <cstddef>
#include <string>
#include <string_view>

namespace flightrec {

// Length (1 to 4) of the well-formed UTF-8 sequence starting at text[pos], or 0 when the bytes
// there are not one (stray continuation byte, overlong form, surrogate, above U+10FFFF, cut short).
size_t utf8_sequence_length(std::string_view text, size_t pos) noexcept;

// True when `text` is well-formed UTF-8 from end to end.
bool is_valid_utf8(std::string_view text) noexcept;

// `text` with every byte that is not part of a well-formed sequence replaced by U+FFFD (the
// REPLACEMENT CHARACTER), one per byte: the replacement the JSON writer makes, so a name reads the
// same in /metrics as in /dump. Well-formed text, control characters included, is left as it is.
std::string valid_utf8(std::string_view text);

}  // namespace flightrec
