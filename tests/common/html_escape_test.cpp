#include "flightrec/common/html_escape.h"

#include <catch2/catch.hpp>

using flightrec::escape_html;

TEST_CASE("shouldEscapeHtmlSpecialCharacters", "[html]") {
  CHECK(escape_html(R"(a<b>&"c'd)") == "a&lt;b&gt;&amp;&quot;c&#39;d");
  CHECK(escape_html("plain") == "plain");
  CHECK(escape_html("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;");
}
