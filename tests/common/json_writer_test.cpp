#include "flightrec/common/json_writer.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

using flightrec::append_json_string;
using flightrec::JsonWriter;

namespace {
std::string quoted(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}
}  // namespace

TEST_CASE("JSON strings escape quotes, backslashes and newlines", "[json]") {
  CHECK(quoted("say \"hi\"") == R"("say \"hi\"")");
  CHECK(quoted("C:\\dir") == R"("C:\\dir")");
  CHECK(quoted("a\nb\r\tc") == R"("a\nb\r\tc")");
  CHECK(quoted("/") == R"("/")");
}

TEST_CASE("JSON strings escape every control character", "[json]") {
  using namespace std::string_literals;
  CHECK(quoted("\x01\x1f\b\f"s) == R"("\u0001\u001f\b\f")");
  CHECK(quoted("nul\0here"s) == R"("nul\u0000here")");
  CHECK(quoted("\x1b[31m") == R"("\u001b[31m")");
}

TEST_CASE("JSON strings keep valid UTF-8 and replace each invalid byte with U+FFFD", "[json]") {
  CHECK(quoted("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") ==
        "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
  CHECK(quoted("\xff") == R"("\ufffd")");
  CHECK(quoted("a\xc3") == R"("a\ufffd")");                              // sequence cut short
  CHECK(quoted("\xc0\xaf") == R"("\ufffd\ufffd")");                      // overlong '/'
  CHECK(quoted("\xed\xa0\x80") == R"("\ufffd\ufffd\ufffd")");            // UTF-16 surrogate
  CHECK(quoted("\xf4\x90\x80\x80") == R"("\ufffd\ufffd\ufffd\ufffd")");  // above U+10FFFF
  CHECK(quoted("\x80z") == R"("\ufffdz")");                              // stray continuation byte
}

TEST_CASE("JsonWriter separates members and elements with commas", "[json]") {
  std::string out;
  JsonWriter json(out);
  json.begin_object();
  json.key("a").number(1);
  json.key("b").begin_array().number(2).string("x").boolean(false).null().end_array();
  json.key("c").begin_object().end_object();
  json.key("d").begin_array().end_array();
  json.end_object();
  CHECK(out == R"({"a":1,"b":[2,"x",false,null],"c":{},"d":[]})");
  CHECK(json.complete());
}

TEST_CASE("JsonWriter indents nested values when asked", "[json]") {
  std::string out;
  JsonWriter json(out, 2);
  json.begin_object().key("list").begin_array().number(1).number(2).end_array();
  json.key("empty").begin_object().end_object().end_object();
  CHECK(out == "{\n  \"list\": [\n    1,\n    2\n  ],\n  \"empty\": {}\n}");
}

TEST_CASE("JsonWriter writes integer extremes exactly and non-finite numbers as null", "[json]") {
  std::string out;
  JsonWriter json(out);
  json.begin_array();
  json.number(std::numeric_limits<int64_t>::min());
  json.number(std::numeric_limits<uint64_t>::max());
  json.number(0.1).number(-2.5e-9).number(1e300);
  json.number(std::nan("")).number(std::numeric_limits<double>::infinity());
  json.number(-std::numeric_limits<double>::infinity());
  json.end_array();
  CHECK(out == "[-9223372036854775808,18446744073709551615,0.1,-2.5e-09,1e+300,null,null,null]");
}

TEST_CASE("JsonWriter rejects calls that would make invalid JSON", "[json]") {
  std::string out;
  {
    JsonWriter json(out);
    CHECK_THROWS_AS(json.key("top"), std::logic_error);
    json.begin_object();
    CHECK_THROWS_AS(json.number(1), std::logic_error);
    CHECK_THROWS_AS(json.end_array(), std::logic_error);
    json.key("k");
    CHECK_THROWS_AS(json.key("again"), std::logic_error);
    CHECK_THROWS_AS(json.end_object(), std::logic_error);
  }
  {
    JsonWriter json(out);
    json.begin_array();
    CHECK_THROWS_AS(json.key("in array"), std::logic_error);
    CHECK_FALSE(json.complete());
    json.end_array();
    CHECK(json.complete());
    CHECK_THROWS_AS(json.number(2), std::logic_error);
  }
}

TEST_CASE("JsonWriter streams the same text to an ostream", "[json]") {
  const auto write = [](JsonWriter& json) {
    json.begin_array();
    for (int i = 0; i < 5000; ++i) json.begin_object().key("i").number(i).end_object();
    json.end_array();
  };
  std::string direct;
  JsonWriter to_string(direct, 1);
  write(to_string);

  std::ostringstream stream;
  {
    JsonWriter to_stream(stream, 1);
    write(to_stream);
  }
  CHECK(stream.str() == direct);
  CHECK(direct.size() > 16 * 1024);  // large enough to pass through several flushes
}
