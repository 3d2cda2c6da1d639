#pragma once
// The one rule for text in the HTML pages we serve (the landing page, the incident list, the
// viewer): whatever a rule, an alert or a process named itself is shown as text, never markup.
#include <string>
#include <string_view>

namespace flightrec {

// Text for HTML element content and attribute values: & < > " ' escaped.
std::string escape_html(std::string_view text);

}  // namespace flightrec
