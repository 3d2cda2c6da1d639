#pragma once
// Standard base64 with padding, for tests that build `Authorization: Basic` headers (the product
// only decodes it, http/basic_auth.h).
#include <cstdint>
#include <string>
#include <string_view>

namespace flightrec::testing {

inline std::string base64(std::string_view in) {
  static constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < in.size(); i += 3) {
    uint32_t group = static_cast<uint32_t>(static_cast<unsigned char>(in[i])) << 16;
    if (i + 1 < in.size()) {
      group |= static_cast<uint32_t>(static_cast<unsigned char>(in[i + 1])) << 8;
    }
    if (i + 2 < in.size()) group |= static_cast<unsigned char>(in[i + 2]);
    out += kAlphabet[(group >> 18) & 63];
    out += kAlphabet[(group >> 12) & 63];
    out += i + 1 < in.size() ? kAlphabet[(group >> 6) & 63] : '=';
    out += i + 2 < in.size() ? kAlphabet[group & 63] : '=';
  }
  return out;
}

}  // namespace flightrec::testing
