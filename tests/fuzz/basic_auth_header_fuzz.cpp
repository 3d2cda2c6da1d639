// Feeds arbitrary bytes to the Authorization header decoder: it must never crash, and whatever it
// accepts must be a user without ':' and credentials without NUL, which re-encode to the header.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "flightrec/http/basic_auth.h"

namespace {

std::string encode(const std::string& in) {
  static constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < in.size(); i += 3) {
    uint32_t group = static_cast<uint32_t>(static_cast<unsigned char>(in[i])) << 16;
    if (i + 1 < in.size())
      group |= static_cast<uint32_t>(static_cast<unsigned char>(in[i + 1])) << 8;
    if (i + 2 < in.size()) group |= static_cast<unsigned char>(in[i + 2]);
    out += kAlphabet[(group >> 18) & 63];
    out += kAlphabet[(group >> 12) & 63];
    out += i + 1 < in.size() ? kAlphabet[(group >> 6) & 63] : '=';
    out += i + 2 < in.size() ? kAlphabet[group & 63] : '=';
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view header(reinterpret_cast<const char*>(data), size);
  const auto credentials = flightrec::http::decode_basic_authorization(header);
  if (!credentials) return 0;
  if (credentials->user.find(':') != std::string::npos) __builtin_trap();
  const std::string joined = credentials->user + ":" + credentials->password;
  if (joined.find('\0') != std::string::npos) __builtin_trap();
  // Strict base64: the one spelling of these bytes is the one that was accepted.
  if (encode(joined) != header.substr(6)) __builtin_trap();
  return 0;
}
