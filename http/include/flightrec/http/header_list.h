#pragma once
// Parser for the comma-separated, q-weighted lists of Accept and Accept-Encoding (RFC 9110 12.5):
//   element *( "," element ),  element = token *( ";" name "=" value ),  q is one of the params.
#include <cstddef>
#include <string_view>
#include <vector>

namespace flightrec::http {

struct HeaderParameter {
  std::string_view name;   // as written; compare with iequals
  std::string_view value;  // surrounding quotes removed
};

struct HeaderElement {
  std::string_view token;                   // "text/plain", "gzip", "*/*" ...; compare with iequals
  std::vector<HeaderParameter> parameters;  // everything except q
  double quality = 1.0;                     // q, in [0, 1]
  std::size_t position = 0;                 // index in the header, for stable tie-breaking
};

// Elements in header order. Malformed elements (empty token, bad q) are skipped, not fatal:
// a header we cannot fully read still yields whatever it states clearly.
std::vector<HeaderElement> parse_header_list(std::string_view header);

bool iequals(std::string_view a, std::string_view b);

// A field value, or a piece of one, without the spaces and tabs around it (RFC 9110 5.5).
std::string_view trim_whitespace(std::string_view s);

// Parameter `name` (case-insensitive) of `element`, or nullptr when it has none.
const HeaderParameter* find_parameter(const HeaderElement& element, std::string_view name);

// True when gzip (or x-gzip, or *) is acceptable with q > 0 and identity is not preferred over it.
// An empty header means "no preference": identity. Every route that compresses asks this.
bool accepts_gzip(std::string_view accept_encoding_header);

}  // namespace flightrec::http
