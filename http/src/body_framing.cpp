#include "flightrec/http/body_framing.h"

#include <algorithm>

#include "flightrec/common/printable.h"

namespace flightrec::http {
namespace {

// A field's value without the whitespace around it (RFC 9110 5.5).
std::string_view trimmed(std::string_view value) {
  const size_t start = value.find_first_not_of(" \t");
  if (start == std::string_view::npos) return {};
  return value.substr(start, value.find_last_not_of(" \t") - start + 1);
}

// Enough digits for any body this side of an exabyte, few enough never to overflow strtoll.
constexpr size_t kMostDigits = 18;

std::string times(size_t count) { return count == 2 ? "twice" : std::to_string(count) + " times"; }

}  // namespace

std::string framing_refusal(const std::vector<std::string_view>& content_lengths,
                            const std::vector<std::string_view>& transfer_encodings) {
  if (content_lengths.size() > 1) {
    std::string values;
    for (const std::string_view value : content_lengths) {
      values += (values.empty() ? "" : ", ") + quote_for_error(trimmed(value));
    }
    return "Content-Length given " + times(content_lengths.size()) + " (" + values +
           "); send it once";
  }
  if (transfer_encodings.size() > 1) {
    return "Transfer-Encoding given " + times(transfer_encodings.size()) + "; send it once";
  }
  if (!content_lengths.empty() && !transfer_encodings.empty()) {
    return "both Content-Length and Transfer-Encoding: the body's end is given two ways; send "
           "one";
  }
  if (content_lengths.empty()) return {};
  const std::string_view value = trimmed(content_lengths.front());
  const bool digits = !value.empty() && std::all_of(value.begin(), value.end(),
                                                    [](char c) { return c >= '0' && c <= '9'; });
  if (!digits) {
    return "Content-Length " + quote_for_error(value) + " is not a number of bytes (digits only)";
  }
  if (value.size() > kMostDigits) {
    return "Content-Length " + quote_for_error(value) + " is more digits than any body has";
  }
  return {};
}

}  // namespace flightrec::http
