#include "flightrec/common/printable.h"

#include <catch2/catch.hpp>
#include <string_view>

using flightrec::quote_for_error;

TEST_CASE("quote_for_error quotes and escapes what is not printable ASCII", "[printable]") {
  CHECK(quote_for_error("") == R"("")");
  CHECK(quote_for_error("json") == R"("json")");
  CHECK(quote_for_error(std::string_view("\x1b\r\n\0\x7f", 5)) == R"("\x1b\x0d\x0a\x00\x7f")");
  CHECK(quote_for_error(R"(say "hi" \ bye)") == R"("say \"hi\" \\ bye")");
  CHECK(quote_for_error("caf\xc3\xa9") == R"("caf\xc3\xa9")");
}
