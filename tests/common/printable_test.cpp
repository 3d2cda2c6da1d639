#include "flightrec/common/printable.h"

#include <catch2/catch.hpp>
#include <string_view>
#include <vector>

using flightrec::quote_for_error;

TEST_CASE("quote_for_error quotes and escapes what is not printable ASCII", "[printable]") {
  CHECK(quote_for_error("") == R"("")");
  CHECK(quote_for_error("json") == R"("json")");
  CHECK(quote_for_error(std::string_view("\x1b\r\n\0\x7f", 5)) == R"("\x1b\x0d\x0a\x00\x7f")");
  CHECK(quote_for_error(R"(say "hi" \ bye)") == R"("say \"hi\" \\ bye")");
  CHECK(quote_for_error("caf\xc3\xa9") == R"("caf\xc3\xa9")");
}

TEST_CASE("quote_for_error can keep UTF-8, name \\n and \\t, and shorten long text",
          "[printable]") {
  const flightrec::QuoteOptions config_style{
      .keep_non_ascii = true, .named_escapes = true, .max_bytes = 8};
  CHECK(quote_for_error("caf\xc3\xa9\n\t", config_style) == "\"caf\xc3\xa9\\n\\t\"");
  CHECK(quote_for_error("a\x1b"
                        "b",
                        config_style) == R"("a\x1bb")");
  CHECK(quote_for_error("0123456789", config_style) == R"("01234567...")");
  CHECK(quote_for_error("01234567", config_style) == R"("01234567")");
}

TEST_CASE("printable replaces what a terminal would act on with '?'", "[printable]") {
  using flightrec::Charset;
  using flightrec::printable;
  CHECK(printable("top\x1b[2J\r\n") == "top?[2J??");
  CHECK(printable("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(printable("caf\xc3\xa9", Charset::ascii) == "caf??");
  CHECK(printable("\xc2\x9b"
                  "31m") == "?31m");  // C1 CSI: one '?' for its two bytes
  CHECK(printable("\xff"
                  "x\x7f") == "?x?");
  CHECK(printable("plain text", Charset::ascii) == "plain text");
}

TEST_CASE("printable_lines keeps a value of several lines in its column", "[common][printable]") {
  CHECK(flightrec::printable_lines("key  ", "one") == std::vector<std::string>{"key  one"});
  CHECK(flightrec::printable_lines("key  ", "one\ntwo\x1b[2J\n") ==
        std::vector<std::string>{"key  one", "     two?[2J", "     "});
  // ASCII, as replay's screen draws it: one '?' per byte outside printable ASCII.
  CHECK(flightrec::printable_lines("k ", "é\nb", flightrec::Charset::ascii) ==
        std::vector<std::string>{"k ??", "  b"});
}
