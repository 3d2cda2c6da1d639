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

TEST_CASE("quote_for_error keeps only printable UTF-8 unescaped", "[printable]") {
  const flightrec::QuoteOptions keep{.keep_non_ascii = true};
  // A byte that is not UTF-8 and a C1 control (8-bit CSI) are escaped like the C0 controls.
  CHECK(quote_for_error("rate\xff", keep) == R"("rate\xff")");
  CHECK(quote_for_error("a\xc3", keep) == R"("a\xc3")");
  CHECK(quote_for_error("\xc2\x9b"
                        "31m",
                        keep) == R"("\xc2\x9b31m")");
  CHECK(quote_for_error("caf\xc3\xa9 \xe2\x82\xac", keep) == "\"caf\xc3\xa9 \xe2\x82\xac\"");
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

TEST_CASE("is_printable says whether printable would change the text", "[printable]") {
  using flightrec::Charset;
  using flightrec::is_printable;
  CHECK(is_printable(""));
  CHECK(is_printable("caf\xc3\xa9 = \"x\""));
  CHECK_FALSE(is_printable("caf\xc3\xa9", Charset::ascii));
  CHECK_FALSE(is_printable("a\nb"));
  CHECK_FALSE(is_printable("a\x1b[2J"));
  CHECK_FALSE(is_printable("\xc2\x9b"));
  CHECK_FALSE(is_printable("ux\xff"));
}

TEST_CASE("escape_unprintable keeps lines and printable UTF-8, and escapes every other byte",
          "[printable]") {
  using flightrec::escape_unprintable;
  CHECK(escape_unprintable("plain \\ \"text\"\nline two\n") == "plain \\ \"text\"\nline two\n");
  CHECK(escape_unprintable("last read: '\"\xff'\n") == "last read: '\"\\xff'\n");
  CHECK(escape_unprintable("a\x1b]0;pwn\x07\r\tb") == R"(a\x1b]0;pwn\x07\x0d\x09b)");
  CHECK(escape_unprintable("caf\xc3\xa9 \xc2\x9b") == "caf\xc3\xa9 \\xc2\\x9b");
  CHECK(escape_unprintable("one\ntwo", flightrec::Newlines::escape) == R"(one\x0atwo)");
}
