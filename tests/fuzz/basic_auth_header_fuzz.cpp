// Feeds arbitrary bytes to the Authorization header decoder: it must never crash, and whatever it
// accepts must be a user without ':' and credentials without NUL, which re-encode to the header.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base64.h"
#include "flightrec/http/basic_auth.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view header(reinterpret_cast<const char*>(data), size);
  const auto credentials = flightrec::http::decode_basic_authorization(header);
  if (!credentials) return 0;
  if (credentials->user.find(':') != std::string::npos) __builtin_trap();
  const std::string joined = credentials->user + ":" + credentials->password;
  if (joined.find('\0') != std::string::npos) __builtin_trap();
  // Strict base64: the one spelling of these bytes is the one that was accepted.
  if (flightrec::testing::base64(joined) != header.substr(6)) __builtin_trap();
  return 0;
}
