#include "flightrec/common/printable.h"

#include <algorithm>

#include "flightrec/common/utf8.h"

namespace flightrec {
namespace {

void append_escaped(std::string& out, unsigned char byte, const QuoteOptions& options) {
  constexpr std::string_view kHex = "0123456789abcdef";
  if (byte == '"' || byte == '\\') {
    out += '\\';
    out += static_cast<char>(byte);
  } else if (options.named_escapes && byte == '\n') {
    out += "\\n";
  } else if (options.named_escapes && byte == '\t') {
    out += "\\t";
  } else if (byte < 0x20 || byte == 0x7F || (byte > 0x7F && !options.keep_non_ascii)) {
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 0x0F];
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

}  // namespace

std::string quote_for_error(std::string_view text, const QuoteOptions& options) {
  const std::string_view shown = text.substr(0, options.max_bytes);
  std::string out;
  out.reserve(shown.size() + 2);
  out += '"';
  for (const char c : shown) append_escaped(out, static_cast<unsigned char>(c), options);
  if (shown.size() < text.size()) out += "...";
  out += '"';
  return out;
}

std::string printable(std::string_view text, Charset charset) {
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t length = charset == Charset::utf8 ? utf8_sequence_length(text, pos) : 1;
    const auto byte = static_cast<unsigned char>(text[pos]);
    const bool unprintable = charset == Charset::ascii
                                 ? byte < 0x20 || byte > 0x7E
                                 : length == 0 || is_control(text, pos, length);
    if (unprintable) {
      out += '?';
      pos += std::max<size_t>(length, 1);
    } else {
      out.append(text, pos, length);
      pos += length;
    }
  }
  return out;
}

std::vector<std::string> printable_lines(std::string_view lead, std::string_view text,
                                         Charset charset) {
  std::vector<std::string> lines;
  std::string indent(lead);
  for (;;) {
    const size_t end = text.find('\n');
    lines.push_back(indent + printable(text.substr(0, end), charset));
    if (end == std::string_view::npos) return lines;
    text.remove_prefix(end + 1);
    indent.assign(lead.size(), ' ');
  }
}

}  // namespace flightrec
