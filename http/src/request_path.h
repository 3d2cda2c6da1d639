#pragma once
// The path a request names, decoded by us rather than by civetweb. civetweb decodes in place into
// a C string, so a "%00" would cut the path short and the router would serve the part before it
// (/incidents/<id>%00evil as /incidents/<id>). Decoded here, the whole path reaches the router,
// which refuses a NUL in it.
#include <string>
#include <string_view>

namespace flightrec::http::detail {

// `raw` (civetweb's local_uri with decode_url off: dot segments already removed from the text as
// sent) percent-decoded, every byte kept, then its "." and ".." segments resolved as RFC 3986
// section 5.2.4 does: those written as %2e or around a %2f only appear once decoded, and
// civetweb used to resolve them after its own decoding, so /incidents/..%2F..%2Fetc is /etc.
[[nodiscard]] std::string decoded_path(std::string_view raw);

}  // namespace flightrec::http::detail
