#include "flightrec/common/utf8.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>

using flightrec::is_valid_utf8;
using flightrec::valid_utf8;

TEST_CASE("is_valid_utf8 takes well-formed UTF-8, control characters included", "[utf8]") {
  CHECK(is_valid_utf8(""));
  CHECK(is_valid_utf8("plain"));
  CHECK(is_valid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  CHECK(is_valid_utf8(std::string_view("\x1b[1m\0\x7f\xc2\x9b", 8)));
  CHECK_FALSE(is_valid_utf8("ux\xff"));
  CHECK_FALSE(is_valid_utf8("a\xc3"));             // cut short
  CHECK_FALSE(is_valid_utf8("\xc0\xaf"));          // overlong '/'
  CHECK_FALSE(is_valid_utf8("\xed\xa0\x80"));      // UTF-16 surrogate
  CHECK_FALSE(is_valid_utf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  CHECK_FALSE(is_valid_utf8("\x80z"));             // stray continuation byte
}

TEST_CASE("valid_utf8 replaces each invalid byte with U+FFFD and keeps the rest", "[utf8]") {
  constexpr std::string_view kFffd = "\xef\xbf\xbd";
  CHECK(valid_utf8("caf\xc3\xa9\x1b[1m") == "caf\xc3\xa9\x1b[1m");
  CHECK(valid_utf8("ux\xff"
                   "bad") == "ux" + std::string(kFffd) + "bad");
  CHECK(valid_utf8("\xc0\xaf") == std::string(kFffd) + std::string(kFffd));
  CHECK(valid_utf8("a\xe2\x82") == "a" + std::string(kFffd) + std::string(kFffd));
  CHECK(is_valid_utf8(valid_utf8("\xf8\x88\x80\x80\x80\xfe\xfe")));
}
