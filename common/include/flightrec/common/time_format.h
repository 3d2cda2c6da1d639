#pragma once
// Times as text, in UTC. Written: RFC 3339 with millisecond precision, "2026-11-30T04:12:47.123Z".
// Read: RFC 3339 ("2026-12-02T03:04:05.123456789Z", "...+01:00", 't' and 'z' in lower case too)
// and Unix seconds ("1764478800", "1764478800.25"), each to int64 Unix nanoseconds.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace flightrec {

// Rounds toward the past, so a time never appears later than it was.
std::string format_rfc3339_ms(int64_t unix_ns);

// Where an RFC 3339 text comes from. Decoded from a URL query, a space stands for the 'T' (RFC
// 3339 section 5.6's note allows it) and for an offset's '+' (which the decoding turned into one).
enum class Rfc3339Source { as_written, url_query };

// An RFC 3339 date-time to Unix ns; nullopt when the text is not one, or is one that int64 ns
// cannot hold (outside 1677..2262, or finer than 9 fraction digits). Then `reason`, when given,
// says what is wrong with a text of the right form ("month 13 out of range"); it is left empty
// for a text that is no time at all.
std::optional<int64_t> parse_rfc3339_ns(std::string_view text, std::string* reason = nullptr,
                                        Rfc3339Source source = Rfc3339Source::as_written);

// Unix seconds, not negative, with an optional fraction of at most 9 digits, to Unix ns; nullopt
// and `reason` as parse_rfc3339_ns gives them.
std::optional<int64_t> parse_unix_seconds_ns(std::string_view text, std::string* reason = nullptr);

}  // namespace flightrec
