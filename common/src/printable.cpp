#include "flightrec/common/printable.h"

#include <algorithm>

#include "flightrec/common/utf8.h"

namespace flightrec {
namespace {

void append_hex_escape(std::string& out, unsigned char byte) {
  constexpr std::string_view kHex = "0123456789abcdef";
  out += "\\x";
  out += kHex[byte >> 4];
  out += kHex[byte & 0x0F];
}

void append_escaped(std::string& out, unsigned char byte, const QuoteOptions& options) {
  if (byte == '"' || byte == '\\') {
    out += '\\';
    out += static_cast<char>(byte);
  } else if (options.named_escapes && byte == '\n') {
    out += "\\n";
  } else if (options.named_escapes && byte == '\t') {
    out += "\\t";
  } else if (byte < 0x20 || byte >= 0x7F) {
    append_hex_escape(out, byte);
  } else {
    out += static_cast<char>(byte);
  }
}

// A C1 control character (U+0080..U+009F) is the two bytes C2 80..C2 9F in UTF-8.
bool is_control(std::string_view text, size_t pos, size_t length) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  return lead < 0x20 || lead == 0x7F ||
         (length == 2 && lead == 0xC2 && static_cast<unsigned char>(text[pos + 1]) < 0xA0);
}

// Length of the character at text[pos] when a terminal shows it as text: a well-formed UTF-8
// sequence that is no control character. 0 for anything else.
size_t printable_length(std::string_view text, size_t pos) {
  const size_t length = utf8_sequence_length(text, pos);
  return length == 0 || is_control(text, pos, length) ? 0 : length;
}

// The same in `charset`: ASCII shows only 0x20..0x7E, one byte each.
size_t shown_length(std::string_view text, size_t pos, Charset charset) {
  if (charset == Charset::utf8) return printable_length(text, pos);
  const auto byte = static_cast<unsigned char>(text[pos]);
  return byte >= 0x20 && byte <= 0x7E ? 1 : 0;
}

}  // namespace

std::string quote_for_error(std::string_view text, const QuoteOptions& options) {
  const std::string_view shown = text.substr(0, options.max_bytes);
  std::string out;
  out.reserve(shown.size() + 2);
  out += '"';
  for (size_t pos = 0; pos < shown.size();) {
    const auto byte = static_cast<unsigned char>(shown[pos]);
    const size_t length = byte > 0x7F && options.keep_non_ascii ? printable_length(shown, pos) : 0;
    if (length != 0) {
      out.append(shown, pos, length);
      pos += length;
    } else {
      append_escaped(out, byte, options);
      ++pos;
    }
  }
  if (shown.size() < text.size()) out += "...";
  out += '"';
  return out;
}

std::string printable(std::string_view text, Charset charset) {
  std::string out;
  out.reserve(text.size());
  for (size_t pos = 0; pos < text.size();) {
    if (const size_t length = shown_length(text, pos, charset); length != 0) {
      out.append(text, pos, length);
      pos += length;
    } else {
      // One '?' per character: a C1 control's two bytes are one.
      out += '?';
      pos += charset == Charset::utf8 ? std::max<size_t>(utf8_sequence_length(text, pos), 1) : 1;
    }
  }
  return out;
}

bool is_printable(std::string_view text, Charset charset) {
  for (size_t pos = 0; pos < text.size();) {
    const size_t length = shown_length(text, pos, charset);
    if (length == 0) return false;
    pos += length;
  }
  return true;
}

std::string escape_unprintable(std::string_view text, Newlines newlines) {
  std::string out;
  out.reserve(text.size());
  for (size_t pos = 0; pos < text.size();) {
    const bool kept_newline = text[pos] == '\n' && newlines == Newlines::keep;
    const size_t length = kept_newline ? 1 : printable_length(text, pos);
    if (length != 0) {
      out.append(text, pos, length);
      pos += length;
    } else {
      append_hex_escape(out, static_cast<unsigned char>(text[pos]));
      ++pos;
    }
  }
  return out;
}

}  // namespace flightrec
