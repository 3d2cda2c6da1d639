#pragma once
// String escaping, which differs between the formats: OpenMetrics escapes backslash, double quote
// and newline everywhere (label values and HELP); text 0.0.4 escapes only backslash and newline
// in HELP, and a quote there must stay literal.
#include <string>
#include <string_view>

namespace flightrec::exposition::detail {

// For OpenMetrics label values and HELP text.
void append_escaped(std::string& out, std::string_view text);

// For text 0.0.4 HELP, which prometheus-cpp writes verbatim: backslash and newline escaped.
std::string escape_text_help(std::string_view help);

bool text_help_needs_escaping(std::string_view help);

}  // namespace flightrec::exposition::detail
