#pragma once
// Where a request's body ends must be beyond doubt (RFC 9112 6.3). civetweb 1.15 reads the first
// Content-Length with strtoll, so it takes "+5" and "5, 6" for 5 and ignores a second
// Content-Length, and it lets Transfer-Encoding win over a Content-Length sent beside it. A proxy
// in front that reads the same bytes another way would see another request where civetweb sees
// a body (request smuggling), so each of these is a 400, and the connection then closes unread.
#include <string_view>
#include <vector>

#include "flightrec/common/result.h"

namespace flightrec::http {

// Success when `content_lengths` and `transfer_encodings` (every value of each field the request
// carried, in order) frame its body one way only: at most one Content-Length, of digits alone, or
// at most one Transfer-Encoding, not both. Otherwise what is wrong, with the values quoted by
// quote_for_error. A Content-Length repeated with the same value is refused too: no client
// sends one twice, and one rule is simpler to trust than a comparison.
[[nodiscard]] Status check_body_framing(const std::vector<std::string_view>& content_lengths,
                                        const std::vector<std::string_view>& transfer_encodings);

}  // namespace flightrec::http
