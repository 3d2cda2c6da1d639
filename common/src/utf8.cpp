#include "flightrec/common/utf8.h"

namespace flightrec {
namespace {

bool in_range(std::string_view text, size_t pos, unsigned char low, unsigned char high) {
  if (pos >= text.size()) return false;
  const auto byte = static_cast<unsigned char>(text[pos]);
  return byte >= low && byte <= high;
}

}  // namespace

// Follows the table of well-formed byte sequences in the Unicode Standard, section 3.9 (table 3-7):
// the second byte's range depends on the first, which rules out overlongs and surrogates.
size_t utf8_sequence_length(std::string_view text, size_t pos) noexcept {
  const auto lead = static_cast<unsigned char>(text[pos]);
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return in_range(text, pos + 1, 0x80, 0xBF) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    const unsigned char low = lead == 0xE0 ? 0xA0 : 0x80;
    const unsigned char high = lead == 0xED ? 0x9F : 0xBF;
    return in_range(text, pos + 1, low, high) && in_range(text, pos + 2, 0x80, 0xBF) ? 3 : 0;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    const unsigned char low = lead == 0xF0 ? 0x90 : 0x80;
    const unsigned char high = lead == 0xF4 ? 0x8F : 0xBF;
    return in_range(text, pos + 1, low, high) && in_range(text, pos + 2, 0x80, 0xBF) &&
                   in_range(text, pos + 3, 0x80, 0xBF)
               ? 4
               : 0;
  }
  return 0;
}

bool is_valid_utf8(std::string_view text) noexcept {
  for (size_t pos = 0; pos < text.size();) {
    const size_t length = utf8_sequence_length(text, pos);
    if (length == 0) return false;
    pos += length;
  }
  return true;
}

std::string valid_utf8(std::string_view text) {
  constexpr std::string_view kReplacement = "\xef\xbf\xbd";  // U+FFFD
  std::string out;
  out.reserve(text.size());
  for (size_t pos = 0; pos < text.size();) {
    if (const size_t length = utf8_sequence_length(text, pos); length != 0) {
      out.append(text, pos, length);
      pos += length;
    } else {
      out += kReplacement;
      ++pos;
    }
  }
  return out;
}

}  // namespace flightrec
