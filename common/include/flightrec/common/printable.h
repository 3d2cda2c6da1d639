#pragma once
// Text from outside (request values, command lines, process names, a config file's values) made
// safe to show: it cannot split a response or a log record into forged lines, end a C string
// early, or send escape sequences to the terminal that shows it. Two ways, written once:
// quoting with escapes, for error messages, and replacing with '?', for tables on a terminal.
#include <cstddef>
#include <string>
#include <string_view>

namespace flightrec {

struct QuoteOptions {
  // Printable UTF-8 beyond ASCII stays as it is: a config file's own UTF-8 reads better
  // unescaped. Bytes that are not UTF-8 and C1 control characters are still escaped.
  bool keep_non_ascii = false;
  // \n and \t instead of \x0a and \x09.
  bool named_escapes = false;
  // Longer text is cut at this many bytes and ends in "..." inside the quotes.
  size_t max_bytes = std::string_view::npos;
};

// `text` between double quotes: `"` and `\` get a backslash, and every other byte outside
// printable ASCII (0x20..0x7E) becomes \xNN (two lowercase hex digits), e.g. ESC is \x1b, NUL is
// \x00. By default non-ASCII UTF-8 is escaped too: the values echoed (query parameters, ids) are
// ASCII when valid, and the result is one line of printable ASCII.
std::string quote_for_error(std::string_view text, const QuoteOptions& options = {});

enum class Charset {
  ascii,  // one column per byte: every byte outside 0x20..0x7E becomes '?'
  utf8,   // valid UTF-8 stays; control characters (C0, DEL, C1) and invalid bytes become '?'
};

// `text` with what a terminal would act on replaced by '?', so a name cannot move the cursor or
// recolour the screen.
std::string printable(std::string_view text, Charset charset = Charset::utf8);

// True when printable() would return `text` unchanged.
bool is_printable(std::string_view text, Charset charset = Charset::utf8);

enum class Newlines {
  keep,    // a message of several lines (an HTTP error body)
  escape,  // a message that must stay one line (a config error): \x0a
};

// `text` with its printable UTF-8 kept and every other byte (controls, bytes that are not UTF-8)
// written as \xNN: the last guard of a message made of parts, some of which may not have been
// quoted, so that whatever it echoes reaches the reader as text. Printable text passes unchanged,
// so parts already quoted with quote_for_error are not escaped twice.
std::string escape_unprintable(std::string_view text, Newlines newlines = Newlines::keep);

}  // namespace flightrec
