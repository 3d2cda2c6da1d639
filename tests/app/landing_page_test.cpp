// The landing page lists the routes it is given, each with its methods, summary and role, so it
// names exactly what the router answers.
#include "flightrec/app/landing_page.h"

#include <catch2/catch.hpp>
#include <string>

#include "curl.h"
#include "flightrec/common/version.h"
#include "flightrec/http/server.h"

using flightrec::app::landing_page_html;
using flightrec::app::landing_page_route;
using flightrec::http::Right;
using flightrec::http::Route;

TEST_CASE("the landing page has one row per route: methods, summary, role and right", "[landing]") {
  const std::string page = landing_page_html(
      {{.path = "/metrics", .summary = "the exposition", .right = Right::read_metrics},
       {.path = "/-/healthy", .summary = "up", .right = Right::anyone},
       {.path = "/-/trigger",
        .summary = "records one",
        .methods = {"POST"},
        .right = Right::capture}});
  CHECK_THAT(page, Catch::Contains("<tr><td><a href=\"/metrics\">/metrics</a></td><td>GET, "
                                   "HEAD</td><td>the exposition</td><td>metrics "
                                   "(read_metrics)</td></tr>\n"));
  CHECK_THAT(page, Catch::Contains("<td><a href=\"/-/healthy\">/-/healthy</a></td><td>GET, "
                                   "HEAD</td><td>up</td><td>none (anyone)</td>"));
  // Following a link GETs, which a POST-only route answers with 405: no link.
  CHECK_THAT(page, Catch::Contains("<tr><td><code>/-/trigger</code></td><td>POST</td><td>records "
                                   "one</td><td>actions (capture)</td></tr>\n"));
  CHECK_THAT(page, Catch::Contains(std::string(flightrec::kVersion)));
}

TEST_CASE("the landing page links no pattern and escapes summaries", "[landing]") {
  const std::string page =
      landing_page_html({{.path = "/incidents/{id}/view", .summary = "a <page> & more"},
                         {.path = "/dump", .summary = "?from=&to=", .right = Right::read_history}});
  CHECK_THAT(page, Catch::Contains("<tr><td><code>/incidents/{id}/view</code></td><td>GET, "
                                   "HEAD</td><td>a &lt;page&gt; &amp; more</td><td>recordings "
                                   "(read_history)</td></tr>\n"));
  CHECK_THAT(page, Catch::Contains("<td>?from=&amp;to=</td>"));
  CHECK_THAT(page, !Catch::Contains("href=\"/incidents"));
}

TEST_CASE("the landing page's route serves a page listing itself first, then the routes given",
          "[landing]") {
  const Route landing = landing_page_route(
      {{.path = "/metrics", .summary = "the exposition", .right = Right::read_metrics}});
  CHECK(landing.path == "/");
  CHECK(landing.right == Right::read_metrics);
  flightrec::http::Server server({.listen_address = "127.0.0.1:0"}, {landing});
  const std::string page = flightrec::testing::curl(server.url());
  const auto itself = page.find("<tr><td><a href=\"/\">/</a></td><td>GET, HEAD</td>");
  const auto metrics = page.find("<tr><td><a href=\"/metrics\">/metrics</a>");
  REQUIRE(itself != std::string::npos);
  REQUIRE(metrics != std::string::npos);
  CHECK(itself < metrics);
}

TEST_CASE("the landing page asks its section on each request and shows it above the endpoints",
          "[landing]") {
  int asked = 0;
  const Route landing = landing_page_route(
      {{.path = "/metrics", .summary = "the exposition", .right = Right::read_metrics}},
      [&asked](const flightrec::http::Request&) {
        ++asked;
        return "<h2>Newest incidents</h2><p>request " + std::to_string(asked) + "</p>\n";
      });
  flightrec::http::Server server({.listen_address = "127.0.0.1:0"}, {landing});
  const std::string first = flightrec::testing::curl(server.url());
  const std::string second = flightrec::testing::curl(server.url());
  CHECK_THAT(first, Catch::Contains("<p>request 1</p>"));
  CHECK_THAT(second, Catch::Contains("<p>request 2</p>"));
  CHECK(first.find("Newest incidents") < first.find("<tr><td><a href=\"/\">/</a>"));
}
