#include "flightrec/http/body_framing.h"

#include <algorithm>

#include "flightrec/common/printable.h"
#include "flightrec/http/header_list.h"

namespace flightrec::http {
namespace {

// Enough digits for any body this side of an exabyte, few enough never to overflow strtoll.
constexpr size_t kMostDigits = 18;

std::string times(size_t count) { return count == 2 ? "twice" : std::to_string(count) + " times"; }

}  // namespace

Status check_body_framing(const std::vector<std::string_view>& content_lengths,
                          const std::vector<std::string_view>& transfer_encodings) {
  if (content_lengths.size() > 1) {
    std::string values;
    for (const std::string_view value : content_lengths) {
      values += (values.empty() ? "" : ", ") + quote_for_error(trim_whitespace(value));
    }
    return Error{"Content-Length given " + times(content_lengths.size()) + " (" + values +
                 "); send it once"};
  }
  if (transfer_encodings.size() > 1) {
    return Error{"Transfer-Encoding given " + times(transfer_encodings.size()) + "; send it once"};
  }
  if (!content_lengths.empty() && !transfer_encodings.empty()) {
    return Error{
        "both Content-Length and Transfer-Encoding: the body's end is given two ways; send one"};
  }
  if (content_lengths.empty()) return {};
  const std::string_view value = trim_whitespace(content_lengths.front());
  const bool digits = !value.empty() && std::all_of(value.begin(), value.end(),
                                                    [](char c) { return c >= '0' && c <= '9'; });
  if (!digits) {
    return Error{"Content-Length " + quote_for_error(value) +
                 " is not a number of bytes (digits only)"};
  }
  if (value.size() > kMostDigits) {
    return Error{"Content-Length " + quote_for_error(value) + " is more digits than any body has"};
  }
  return {};
}

}  // namespace flightrec::http
