// GET /incidents as a page for people: chosen by Accept or ?format=, its rows, their links and
// replay command lines, and everything an alert or a rule named escaped.
#include "flightrec/incidents/list_page.h"

#include <catch2/catch.hpp>
#include <limits>
#include <string>
#include <vector>

#include "curl.h"
#include "flightrec/http/server.h"
#include "flightrec/incidents/handlers.h"
#include "flightrec/incidents/routes.h"
#include "incident_fixture.h"

using namespace flightrec;
using namespace flightrec::incidents;
using namespace incident_test;

namespace {

constexpr std::string_view kBrowser =
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

std::string curl(const std::string& args) { return flightrec::testing::curl(args, 5); }

// "<status> <content type>" of GET `url` with `accept` ("" sends no Accept header).
std::string answer_type(const std::string& url, std::string_view accept) {
  return curl("-o /dev/null -w '%{http_code} %{content_type}' -H 'Accept: " + std::string(accept) +
              "' '" + url + "'");
}

struct ServedStore {
  TempDir dir;
  StderrCapture log;
  IncidentStore store{{.dir = dir.path(), .max_count = 10}};
  http::Server server{{.listen_address = "127.0.0.1:0"}, incidents_routes(store)};
};

IncidentEntry write_description(IncidentStore& store, const model::IncidentDescription& incident) {
  const std::vector<std::shared_ptr<const store::Block>> blocks{make_block(5)};
  return store.write(incident, make_metadata(), blocks);
}

// An alert whose name and summary a sender chose to be markup.
model::IncidentDescription hostile_alert() {
  auto alert = make_info("alert", 10000);
  alert.series.clear();
  alert.value = std::numeric_limits<double>::quiet_NaN();
  alert.details = {{"alert.label.alertname", "<script>alert(1)</script>"},
                   {"alert.annotation.summary", "a \"quoted\" & <b>bold</b> summary"}};
  return alert;
}

}  // namespace

TEST_CASE("GET /incidents is HTML for a browser, JSON for curl, and as ?format= says",
          "[incidents][page]") {
  ServedStore served;
  write_incident(served.store, "cpu_busy", 1000);
  const std::string list = served.server.url() + "incidents";
  CHECK(answer_type(list, kBrowser) == "200 text/html; charset=utf-8");
  CHECK(answer_type(list, "*/*") == "200 application/json");
  CHECK(answer_type(list, "") == "200 application/json");
  CHECK(answer_type(list, "image/png") == "200 application/json");
  CHECK(answer_type(list, "text/html;q=0.5, application/json") == "200 application/json");
  CHECK(answer_type(list, "application/json;q=0.5, text/html") == "200 text/html; charset=utf-8");
  CHECK(answer_type(list + "?format=json", kBrowser) == "200 application/json");
  CHECK(answer_type(list + "?format=html", "*/*") == "200 text/html; charset=utf-8");
  // The JSON is the same document whichever way it was chosen.
  CHECK(curl("-H 'Accept: application/json' " + list) == incidents_json(served.store.list()));
  CHECK(curl(list + "?format=json") == incidents_json(served.store.list()));
  const std::string headers = curl("-s -D - -o /dev/null -H 'Accept: text/html' " + list);
  CHECK_THAT(headers, Catch::Contains("Vary: Accept"));
  CHECK_THAT(headers, Catch::Contains("Content-Security-Policy: default-src 'none'"));
}

TEST_CASE("GET /incidents refuses a format it does not have, naming it", "[incidents][page]") {
  ServedStore served;
  const std::string list = served.server.url() + "incidents";
  CHECK(curl("-w ' %{http_code}' '" + list + "?format=xml'") ==
        "format: \"xml\" is not one of json, html\n 400");
  CHECK(curl("-w ' %{http_code}' '" + list + "?format=html&format=json'") ==
        "parameter \"format\" is given more than once\n 400");
}

TEST_CASE("the incident page lists newest first, with links, values and the replay command",
          "[incidents][page]") {
  ServedStore served;
  const auto older = write_incident(served.store, "cpu_busy", 1000);
  const auto alert = write_description(served.store, hostile_alert());
  const std::string page =
      curl("-H 'Host: node1:9717' '" + served.server.url() + "incidents?format=html'");
  CHECK(page.find(alert.id) < page.find(older.id));
  CHECK_THAT(page, Catch::Contains("<a href=\"/incidents/" + older.id + "/view\">view</a>"));
  CHECK_THAT(page, Catch::Contains("<a href=\"/incidents/" + older.id + "\">file</a>"));
  CHECK_THAT(page,
             Catch::Contains("<code class=\"cmd\">flightrec replay http://node1:9717/incidents/" +
                             older.id + "</code>"));
  // The rule's value in its unit, when it fired in UTC, kind and rule.
  CHECK_THAT(page, Catch::Contains("<td>2025-11-30T05:00:01.000Z</td><td>rule</td><td>cpu_busy</td>"
                                   "<td class=\"value\">93.0%</td>"));
  // The alert: its name and summary as text, never markup; no value.
  CHECK_THAT(page, Catch::Contains("<td>alert</td><td>&lt;script&gt;alert(1)&lt;/script&gt;</td>"
                                   "<td class=\"value\">-</td>"));
  CHECK_THAT(page, Catch::Contains("a &quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt; summary"));
  CHECK_THAT(page, !Catch::Contains("<script>"));
  CHECK_THAT(page, !Catch::Contains("<b>bold"));
}

TEST_CASE("the replay command line keeps to a plausible host and quotes the user",
          "[incidents][page]") {
  ServedStore served;
  const auto entry = write_incident(served.store, "cpu_busy", 1000);
  const std::string url = served.server.url() + "incidents?format=html";
  CHECK_THAT(curl("-H 'Host: evil.example;rm -rf /' '" + url + "'"),
             Catch::Contains("flightrec replay http://HOST:PORT/incidents/" + entry.id));
  CHECK_THAT(curl("-H 'Host: [::1]:9717' '" + url + "'"),
             Catch::Contains("flightrec replay http://[::1]:9717/incidents/" + entry.id));
}

TEST_CASE("the landing page's section links the newest incidents that have a file",
          "[incidents][page]") {
  ServedStore served;
  std::vector<IncidentEntry> entries;
  for (int i = 0; i < 4; ++i)
    entries.push_back(write_incident(served.store, "r" + std::to_string(i), i * 1000));
  const std::string section = newest_incidents_html(served.store.list(), 2);
  CHECK_THAT(section, Catch::Contains("<a href=\"/incidents/" + entries[3].id + "/view\">"));
  CHECK_THAT(section, Catch::Contains("<a href=\"/incidents/" + entries[2].id + "/view\">"));
  CHECK_THAT(section, !Catch::Contains(entries[1].id));
  CHECK_THAT(section, Catch::Contains("<a href=\"/incidents\">All 4 incidents</a>"));
  CHECK_THAT(newest_incidents_html({}, 5), Catch::Contains("No incidents recorded yet."));

  const auto written = write_description(served.store, hostile_alert());
  CHECK_THAT(newest_incidents_html(served.store.list(), 1),
             Catch::Contains("alert &lt;script&gt;alert(1)&lt;/script&gt;</a>"));
  CHECK(written.status == IncidentStatus::written);
}
