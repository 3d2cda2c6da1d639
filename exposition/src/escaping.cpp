#include "escaping.h"

namespace flightrec::exposition::detail {

void append_escaped(std::string& out, std::string_view text) {
  // Most label values and HELP texts need no escaping: copy runs between specials in bulk.
  for (size_t special; (special = text.find_first_of("\\\"\n")) != std::string_view::npos;
       text.remove_prefix(special + 1)) {
    out.append(text.data(), special);
    switch (text[special]) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      default:  // '\n'
        out += "\\n";
    }
  }
  out.append(text);
}

bool text_help_needs_escaping(std::string_view help) {
  return help.find_first_of("\\\n") != std::string_view::npos;
}

std::string escape_text_help(std::string_view help) {
  std::string escaped;
  escaped.reserve(help.size());
  for (const char c : help) {
    if (c == '\\') {
      escaped += "\\\\";
    } else if (c == '\n') {
      escaped += "\\n";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

}  // namespace flightrec::exposition::detail
