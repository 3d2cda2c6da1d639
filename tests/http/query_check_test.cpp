#include "flightrec/http/query_check.h"

#include <catch2/catch.hpp>
#include <string_view>

using flightrec::http::check_query_names;

TEST_CASE("check_query_names accepts the allowed names, each at most once", "[query]") {
  CHECK(check_query_names("", {}).ok());
  CHECK(check_query_names("", {"format"}).ok());
  CHECK(check_query_names("format=csv", {"format"}).ok());
  CHECK(check_query_names("format", {"format"}).ok());
  CHECK(check_query_names("&format=csv&", {"format"}).ok());
}

TEST_CASE("check_query_names names an unknown parameter and what is allowed", "[query]") {
  CHECK(check_query_names("bogus=1", {}).error() == R"(unknown parameter "bogus" (allowed: none))");
  CHECK(check_query_names("format=csv&foo=1", {"format"}).error() ==
        R"(unknown parameter "foo" (allowed: format))");
  CHECK(check_query_names("=x", {"from", "to"}).error() ==
        R"(unknown parameter "" (allowed: from, to))");
  // Compared as sent: an encoded name is not the name http::Request::param would find.
  CHECK(check_query_names("f%6Frmat=csv", {"format"}).error() ==
        R"(unknown parameter "f%6Frmat" (allowed: format))");
}

TEST_CASE("check_query_names rejects a parameter given twice", "[query]") {
  CHECK(check_query_names("format=json&format=csv", {"format"}).error() ==
        R"(parameter "format" is given more than once)");
  CHECK(check_query_names("format&format", {"format"}).error() ==
        R"(parameter "format" is given more than once)");
}

TEST_CASE("check_query_names escapes control bytes of the name it echoes", "[query]") {
  CHECK(check_query_names(std::string_view("a\x1b[2J\r\nb", 8), {}).error() ==
        R"(unknown parameter "a\x1b[2J\x0d\x0ab" (allowed: none))");
}
