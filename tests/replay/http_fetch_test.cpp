#include "flightrec/replay/http_fetch.h"

#include <catch2/catch.hpp>

#include "flightrec/http/server.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/replay/run.h"
#include "flightrec/store/process_block.h"
#include "replay_fixture.h"

using namespace flightrec::replay;
using namespace flightrec::replay::testing;
namespace http = flightrec::http;

namespace {

std::string fixture_bytes() {
  const ReplayData data = fixture();
  std::string out;
  flightrec::recording::RecordingWriter writer(
      [&out](std::string_view bytes) {
        out += bytes;
        return true;
      },
      data.meta);
  for (const auto& block : data.blocks) writer.add(*block);
  writer.add_process_block(*flightrec::store::ProcessBlock::encode(std::span(data.process_frames)));
  writer.finish();
  return out;
}

// Serves the fixture the way /dump does (chunked, a piece at a time) and records the query.
struct FixtureServer {
  std::string bytes = fixture_bytes();
  std::string last_query;
  http::Server server{http::ServerOptions{"127.0.0.1:0", 2, std::chrono::milliseconds(5000)},
                      {{"/dump",
                        [this](const http::Request& request, http::Response& response) {
                          last_query = std::string(request.query());
                          response.begin(200, "application/octet-stream");
                          for (size_t at = 0; at < bytes.size(); at += 1000) {
                            response.write(std::string_view(bytes).substr(at, 1000));
                          }
                          response.end();
                        }},
                       {"/incidents/{id...}", [](const http::Request&, http::Response& response) {
                          response.send(404, "text/plain", "no incident \"x\"\n");
                        }}}};
  std::string url(std::string_view path) const {
    std::string base = server.url();
    if (base.ends_with('/')) base.pop_back();
    return base + std::string(path);
  }
};

}  // namespace

TEST_CASE("chunkedBodiesAreDecoded", "[replay][http]") {
  std::string out;
  std::string error;
  REQUIRE(decode_chunked("5\r\nhello\r\n1;ext=1\r\n!\r\n0\r\n\r\n", out, error));
  CHECK(out == "hello!");
  CHECK_FALSE(decode_chunked("5\r\nhel", out, error));
  CHECK(error == "chunked body cut short inside a chunk");
  CHECK_FALSE(decode_chunked("zz\r\n", out, error));
  CHECK(error == "malformed chunk size \"zz\"");
  CHECK_FALSE(decode_chunked("5\r\nhello\r\n", out, error));
}

TEST_CASE("dumpUrlsAskForTheRawFormat", "[replay][http]") {
  CHECK(recording_url("http://h:1/dump") == "http://h:1/dump?format=raw");
  CHECK(recording_url("http://h:1/dump?from=-5s") == "http://h:1/dump?from=-5s&format=raw");
  CHECK(recording_url("http://h:1/dump?format=raw&to=now") == "http://h:1/dump?format=raw&to=now");
  CHECK(recording_url("http://h:1/incidents/abc") == "http://h:1/incidents/abc");
}

TEST_CASE("aRecordingIsFetchedOverHttpAndReplayed", "[replay][http]") {
  FixtureServer server;
  const FetchResult fetched = http_get(server.url("/dump?format=raw"));
  REQUIRE(fetched.ok());
  CHECK(fetched.body == server.bytes);
  const LoadResult loaded = load_source(server.url("/dump?from=-1m"));
  REQUIRE(loaded.data);
  CHECK(server.last_query == "from=-1m&format=raw");
  CHECK(loaded.data->blocks.size() == fixture().blocks.size());
  CHECK(loaded.data->process_frames == fixture().process_frames);
}

TEST_CASE("httpErrorsNameTheUrlAndTheStatus", "[replay][http]") {
  FixtureServer server;
  const FetchResult missing = http_get(server.url("/incidents/x"));
  CHECK(missing.error == server.url("/incidents/x") + ": 404 Not Found: no incident \"x\"");
  const FetchResult https = http_get("https://example.com/dump");
  CHECK_THAT(https.error, Catch::Contains("only http:// URLs"));
  // A port nobody listens on: the server's port once it is gone.
  std::string closed_url;
  {
    FixtureServer gone;
    closed_url = gone.url("/dump");
  }
  CHECK_THAT(http_get(closed_url).error, Catch::Contains("cannot connect"));
}
