#include "flightrec/incidents/handlers.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "curl.h"
#include "flightrec/http/server.h"
#include "flightrec/incidents/routes.h"
#include "incident_fixture.h"

using namespace flightrec;
using namespace flightrec::incidents;
using namespace incident_test;

namespace {

std::string curl(const std::string& args) { return flightrec::testing::curl(args, 5); }

std::string status_of(const std::string& url_and_args) {
  return curl("-o /dev/null -w '%{http_code}' " + url_and_args);
}

struct ServedStore {
  TempDir dir;
  StderrCapture log;
  IncidentStore store{{.dir = dir.path(), .max_count = 10}};
  http::Server server{{.listen_address = "127.0.0.1:0"}, incidents_routes(store)};
};

}  // namespace

TEST_CASE("GET /incidents lists incidents newest first with status and window", "[incidents]") {
  ServedStore served;
  const auto older = write_incident(served.store, "cpu_busy", 1000);
  const auto newer = write_incident(served.store, "mem", 2000);
  const std::string body = curl(served.server.url() + "incidents");
  CHECK(body == incidents_json(served.store.list()));
  CHECK(body.find(newer.id) < body.find(older.id));
  CHECK_THAT(body, Catch::Matchers::Contains(
                       "\"fired_at\":\"2025-11-30T05:00:01.000Z\",\"window\":{\"from\":"
                       "\"2025-11-30T04:59:56.000Z\",\"to\":\"2025-11-30T05:00:02.000Z\"}"));
  CHECK_THAT(body, Catch::Matchers::Contains("\"status\":\"written\""));
  CHECK_THAT(body, Catch::Matchers::Contains("\"bytes\":" + std::to_string(older.bytes)));
  CHECK_THAT(curl("-i " + served.server.url() + "incidents"),
             Catch::Matchers::Contains("Content-Type: application/json"));
}

TEST_CASE("GET /incidents shows failed incidents with their error", "[incidents]") {
  ServedStore served;
  std::filesystem::remove_all(served.dir.path());
  write_bytes(served.dir.path(), "in the way");
  const auto entry = write_incident(served.store, "cpu", 1000);
  std::filesystem::remove(served.dir.path());
  const std::string body = curl(served.server.url() + "incidents");
  CHECK_THAT(body, Catch::Matchers::Contains("\"id\":\"" + entry.id + "\""));
  CHECK_THAT(body, Catch::Matchers::Contains("\"status\":\"failed\",\"cause\":\"other\""));
  CHECK_THAT(body, Catch::Matchers::Contains("\"error\":\""));
  CHECK(status_of(served.server.url() + "incidents/" + entry.id) == "404");
}

TEST_CASE("GET /incidents and ?format=json carry a manual request's reason, escaped",
          "[incidents]") {
  ServedStore served;
  auto manual = make_info("manual", 1000);
  manual.reason = "deploy of v2.3: \"canary\"\\eu\n<b>";
  const std::vector<std::shared_ptr<const store::Block>> blocks{make_block(5)};
  const auto entry = served.store.write(manual, make_metadata(), blocks);
  const std::string escaped = R"("deploy of v2.3: \"canary\"\\eu\n<b>")";
  CHECK_THAT(curl(served.server.url() + "incidents"),
             Catch::Matchers::Contains("\"reason\":" + escaped));
  CHECK_THAT(curl(served.server.url() + "incidents"),
             Catch::Matchers::Contains("\"kind\":\"manual\",\"rule\":\"manual\""));
  CHECK_THAT(curl(served.server.url() + "incidents/" + entry.id + "?format=json"),
             Catch::Matchers::Contains("\"incident.kind\":\"manual\""));
  CHECK_THAT(curl(served.server.url() + "incidents/" + entry.id + "?format=json"),
             Catch::Matchers::Contains("\"incident.reason\":" + escaped));
}

TEST_CASE("GET /incidents/{id} returns the stored bytes unchanged", "[incidents]") {
  ServedStore served;
  const auto entry = write_incident(served.store, "cpu", 1000);
  const auto file = served.dir.path() / (entry.id + ".flightrec");
  CHECK(curl(served.server.url() + "incidents/" + entry.id) == read_bytes(file));
  CHECK(curl(served.server.url() + "incidents/" + entry.id + "?format=raw") == read_bytes(file));
  CHECK_THAT(curl("-i " + served.server.url() + "incidents/" + entry.id),
             Catch::Matchers::Contains("Content-Type: application/octet-stream"));
}

TEST_CASE("GET /incidents/{id}?format=csv converts the file through the recording converter",
          "[incidents]") {
  ServedStore served;
  const auto entry = write_incident(served.store, "cpu", 1000, 5);
  const std::string csv = curl(served.server.url() + "incidents/" + entry.id + "?format=csv");
  size_t lines = 0;
  for (const char c : csv) lines += c == '\n' ? 1 : 0;
  CHECK(lines >= 6);  // a header and one row per frame
  CHECK_THAT(csv, Catch::Matchers::Contains("a_total"));
  CHECK(status_of("'" + served.server.url() + "incidents/" + entry.id + "?format=xml'") == "400");
}

TEST_CASE("GET /incidents/{id} gives 404 for unknown ids and never leaves the index",
          "[incidents]") {
  ServedStore served;
  write_incident(served.store, "cpu", 1000);
  const std::string url = served.server.url();
  CHECK(status_of(url + "incidents/20251130T050000.000Z-nope") == "404");
  // The server decodes %2F and removes dot segments before routing: these become /etc/passwd,
  // /x and / and never reach the handler.
  CHECK(status_of(url + "incidents/..%2F..%2Fetc%2Fpasswd") == "404");
  CHECK(status_of("--path-as-is " + url + "incidents/../x") == "404");
  CHECK(status_of("--path-as-is " + url + "incidents/..") == "404");
  // What does reach the handler is checked against the id charset.
  CHECK(status_of(url + "incidents/a%20b") == "400");
  CHECK(status_of(url + "incidents/.hidden") == "400");
  CHECK(status_of(url + "incidents/" + std::string(300, 'a')) == "400");
  CHECK(status_of(url + "incidents/a/b") == "400");
  const std::string body = curl(url + "incidents/..%2F..%2Fetc%2Fpasswd");
  CHECK_THAT(body, !Catch::Matchers::Contains("root:"));
}

TEST_CASE("The store resolves only ids in its index, whatever the path says", "[incidents]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  write_bytes(dir.path() / "secret", "s");
  const auto entry = write_incident(store, "cpu", 1000);
  CHECK(store.file_of(entry.id) == dir.path() / (entry.id + ".flightrec"));
  CHECK_FALSE(store.file_of("secret").has_value());
  CHECK_FALSE(store.file_of("../" + dir.path().filename().string() + "/secret").has_value());
  CHECK_FALSE(store.file_of("/etc/passwd").has_value());
  CHECK_FALSE(store.find(std::string(10000, 'a')).has_value());
}

namespace {

// "<status> <body>" of one request: one curl run, so both come from the same answer.
std::string answer_of(const std::string& url) {
  const std::string out = curl("-w '%{http_code}' '" + url + "'");
  if (out.size() < 3) return out;
  const size_t body_size = out.size() - 3;  // the status code's three digits come last
  return out.substr(body_size) + " " + out.substr(0, body_size);
}

}  // namespace

TEST_CASE("GET /incidents/{id} answers 404 in every format once the file was deleted",
          "[incidents]") {
  ServedStore served;
  const auto entry = write_incident(served.store, "cpu", 1000);
  std::filesystem::remove(served.dir.path() / (entry.id + ".flightrec"));
  const std::string url = served.server.url() + "incidents/" + entry.id;
  const std::string expected = "404 incident " + entry.id + " is no longer stored\n";
  CHECK(answer_of(url) == expected);
  CHECK(answer_of(url + "?format=json") == expected);
  CHECK(answer_of(url + "?format=csv") == expected);
}

TEST_CASE("GET /incidents/{id} answers 500 in every format when a directory replaced the file",
          "[incidents]") {
  ServedStore served;
  const auto entry = write_incident(served.store, "cpu", 1000);
  const auto file = served.dir.path() / (entry.id + ".flightrec");
  std::filesystem::remove(file);
  std::filesystem::create_directory(file);
  const std::string url = served.server.url() + "incidents/" + entry.id;
  const std::string expected =
      "500 incident " + entry.id + ": " + file.string() + " is not a regular file\n";
  CHECK(answer_of(url) == expected);
  CHECK(answer_of(url + "?format=json") == expected);
  CHECK(answer_of(url + "?format=csv") == expected);
}

TEST_CASE("The incident routes reject unknown and repeated query parameters", "[incidents]") {
  ServedStore served;
  const auto entry = write_incident(served.store, "cpu", 1000);
  const std::string list = served.server.url() + "incidents";
  const std::string one = list + "/" + entry.id;
  CHECK(answer_of(list + "?bogus=1") == "400 unknown parameter \"bogus\" (allowed: format)\n");
  CHECK(answer_of(one + "?foo=1") == "400 unknown parameter \"foo\" (allowed: format)\n");
  CHECK(answer_of(one + "?format=csv&foo=1") ==
        "400 unknown parameter \"foo\" (allowed: format)\n");
  CHECK(answer_of(one + "?format=json&format=csv") ==
        "400 parameter \"format\" is given more than once\n");
  // Still served when the query is fine, including an empty one.
  CHECK(status_of(list + "?") == "200");
  CHECK(status_of(one + "?format=json") == "200");
}

TEST_CASE("GET /incidents/{id} quotes the format it rejects and escapes control bytes",
          "[incidents]") {
  ServedStore served;
  const auto entry = write_incident(served.store, "cpu", 1000);
  const std::string one = served.server.url() + "incidents/" + entry.id;
  CHECK(answer_of(one + "?format=") == "400 format: \"\" is not one of raw, json, csv\n");
  CHECK(answer_of(one + "?format=xml") == "400 format: \"xml\" is not one of raw, json, csv\n");
  CHECK(answer_of(one + "?format=%1b%5b31m%0d%0aX:%01y") ==
        "400 format: \"\\x1b[31m\\x0d\\x0aX:\\x01y\" is not one of raw, json, csv\n");
  // A NUL is refused by the router before any route sees the query.
  CHECK(answer_of(one + "?format=%00") == "400 the query holds a NUL byte (%00): \"format=%00\"\n");
}
