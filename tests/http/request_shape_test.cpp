// Hostile request shapes against the real server, driven with curl: bodies over a route's bound
// (announced or chunked) and NUL bytes (%00) in the path or the query.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "curl.h"
#include "flightrec/http/server.h"
#include "temp_dir.h"

using namespace flightrec::http;
using flightrec::testing::TempDir;

namespace {

constexpr size_t kEchoBound = 16;

// "413 <body>": the status, then what the server said.
std::string answer(const std::string& args) {
  return flightrec::testing::curl("-w ' %{http_code}' " + args, 5);
}

std::vector<Route> shape_routes() {
  return {
      {.path = "/act",  // takes no body, as POST /-/trigger and /-/reload
       .handler = [](const Request&, Response& res) { res.send(202, "text/plain", "acted\n"); },
       .methods = {"POST"}},
      {.path = "/echo",
       .handler = [](const Request& req,
                     Response& res) { res.send(200, "text/plain", std::string(req.body())); },
       .methods = {"POST"},
       .max_body_bytes = kEchoBound},
      {.path = "/items/{id...}",
       .handler =
           [](const Request& req, Response& res) {
             res.send(200, "text/plain", "item " + std::string(req.path_value("id")));
           }},
      {.path = "/hello",
       .handler =
           [](const Request& req, Response& res) {
             res.send(200, "text/plain", "hello " + req.param("name").value_or("nobody"));
           }},
  };
}

}  // namespace

TEST_CASE("shouldRefuseABodyAnnouncedOverTheRouteBoundBeforeReadingIt", "[http][shapes]") {
  Server server({.listen_address = "127.0.0.1:0"}, shape_routes());
  // Nothing follows the headers: the answer cannot wait for 99,999,999,999 bytes.
  CHECK(answer("-X POST -H 'Content-Length: 99999999999' " + server.url() + "act") ==
        "request body: 99999999999 bytes; this route takes none\n 413");
  CHECK(answer("-X POST -H 'Content-Length: 17' " + server.url() + "echo") ==
        "request body: 17 bytes; this route takes at most 16 bytes\n 413");
  CHECK(answer("-X POST " + server.url() + "act") == "acted\n 202");
  CHECK(answer("-X POST -H 'Content-Length: 0' " + server.url() + "act") == "acted\n 202");
}

TEST_CASE("shouldRefuseAChunkedBodyOnceItRunsPastTheRouteBound", "[http][shapes]") {
  const TempDir dir;
  Server server({.listen_address = "127.0.0.1:0"}, shape_routes());
  const auto fits = dir.write("fits.txt", std::string(kEchoBound, 'a'));
  const auto over = dir.write("over.txt", std::string(kEchoBound + 1, 'a'));
  const std::string chunked = "-H 'Transfer-Encoding: chunked' --data-binary @";
  CHECK(answer(chunked + fits.string() + " " + server.url() + "echo") ==
        std::string(kEchoBound, 'a') + " 200");
  CHECK(answer(chunked + over.string() + " " + server.url() + "echo") ==
        "request body: more than 16 bytes; this route takes at most 16 bytes\n 413");
  CHECK(answer(chunked + fits.string() + " " + server.url() + "act") ==
        "request body: not empty; this route takes none\n 413");
}

TEST_CASE("shouldRefuseANulInThePathOrQueryInsteadOfServingThePartBeforeIt", "[http][shapes]") {
  Server server({.listen_address = "127.0.0.1:0"}, shape_routes());
  CHECK(answer(server.url() + "items/42%00evil") ==
        "the path holds a NUL byte (%00): \"/items/42\\x00evil\"\n 400");
  CHECK(answer(server.url() + "items/%00") ==
        "the path holds a NUL byte (%00): \"/items/\\x00\"\n 400");
  CHECK(answer(server.url() + "hello?name=a%00b") ==
        "the query holds a NUL byte (%00): \"name=a%00b\"\n 400");
  CHECK(answer(server.url() + "items/42") == "item 42 200");
  CHECK(answer(server.url() + "hello?name=a%20b") == "hello a b 200");
}

TEST_CASE("shouldResolveDotSegmentsThatOnlyAppearOnceThePathIsDecoded", "[http][shapes]") {
  Server server({.listen_address = "127.0.0.1:0"}, shape_routes());
  // Sent as one segment; decoded, /items/x/../../hello: the route that path names.
  CHECK(answer(server.url() + "items/x%2F..%2F..%2Fhello") == "hello nobody 200");
  CHECK(answer(server.url() + "items/%2e%2e/items/7") == "item 7 200");
  CHECK(answer(server.url() + "items/a%2Fb") == "item a/b 200");
  CHECK(answer("--path-as-is " + server.url() + "items/../hello") == "hello nobody 200");
}
