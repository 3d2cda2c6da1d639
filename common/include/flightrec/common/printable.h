#pragma once
// Request values echoed in error bodies and log lines: whatever a client sent, what comes back is
// one line of printable ASCII, so it cannot split a response or a log record into forged lines,
// end a C string early, or send escape sequences to the terminal that shows it.
#include <string>
#include <string_view>

namespace flightrec {

// `text` between double quotes: `"` and `\` get a backslash, and every byte outside printable
// ASCII (0x20..0x7E) becomes \xNN (two lowercase hex digits), e.g. ESC is \x1b, NUL is \x00.
// Non-ASCII UTF-8 is escaped too: the values echoed (query parameters, ids) are ASCII when valid.
std::string quote_for_error(std::string_view text);

}  // namespace flightrec
