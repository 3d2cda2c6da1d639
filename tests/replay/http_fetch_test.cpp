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
  http::Server server{
      http::ServerOptions{"127.0.0.1:0", 2, std::chrono::milliseconds(5000)},
      {{"/dump", "the fixture recording",
        [this](const http::Request& request, http::Response& response) {
          last_query = std::string(request.query());
          response.begin(200, "application/octet-stream");
          for (size_t at = 0; at < bytes.size(); at += 1000) {
            response.write(std::string_view(bytes).substr(at, 1000));
          }
          response.end();
        }},
       {"/incidents/{id...}", "no incident", [](const http::Request&, http::Response& response) {
          response.send(404, "text/plain", "no incident \"x\"\n");
        }}}};
  std::string url(std::string_view path) const {
    std::string base = server.url();
    if (base.ends_with('/')) base.pop_back();
    return base + std::string(path);
  }
};

}  // namespace

TEST_CASE("dumpUrlsAskForTheRawFormat", "[replay][http]") {
  CHECK(recording_url("http://h:1/dump") == "http://h:1/dump?format=raw");
  CHECK(recording_url("http://h:1/dump?from=-5s") == "http://h:1/dump?from=-5s&format=raw");
  CHECK(recording_url("http://h:1/dump?format=raw&to=now") == "http://h:1/dump?format=raw&to=now");
  CHECK(recording_url("http://h:1/incidents/abc") == "http://h:1/incidents/abc");
}

TEST_CASE("aRecordingIsFetchedOverHttpAndReplayed", "[replay][http]") {
  FixtureServer server;
  const auto fetched = http_get(server.url("/dump?format=raw"));
  REQUIRE(fetched.ok());
  CHECK(*fetched == server.bytes);
  const auto loaded = load_source(server.url("/dump?from=-1m"));
  REQUIRE(loaded);
  CHECK(server.last_query == "from=-1m&format=raw");
  CHECK(loaded->blocks.size() == fixture().blocks.size());
  // Process blocks stay as stored until the cursor needs them.
  CHECK(loaded->process_frames.empty());
  std::vector<flightrec::process::ProcessFrame> frames;
  for (const auto& block : loaded->process_blocks) {
    std::vector<flightrec::process::ProcessFrame> decoded;
    REQUIRE(block->decode_checked(decoded).ok());
    frames.insert(frames.end(), decoded.begin(), decoded.end());
  }
  CHECK(frames == fixture().process_frames);
}

TEST_CASE("httpErrorsNameTheUrlAndTheStatus", "[replay][http]") {
  FixtureServer server;
  const auto missing = http_get(server.url("/incidents/x"));
  CHECK(missing.error() == server.url("/incidents/x") + ": 404 Not Found: no incident \"x\"");
  const auto ftp = http_get("ftp://example.com/dump");
  CHECK(ftp.error() == "ftp://example.com/dump: only http:// and https:// URLs can be fetched");
  // A port nobody listens on: the server's port once it is gone.
  std::string closed_url;
  {
    FixtureServer gone;
    closed_url = gone.url("/dump");
  }
  CHECK_THAT(http_get(closed_url).error(), Catch::Contains("cannot connect"));
}

TEST_CASE("passwordsInAUrlAreNotShown", "[replay][http]") {
  CHECK(url_for_display("https://alice:s3cret@h:1/dump") == "https://alice:***@h:1/dump");
  CHECK(url_for_display("https://alice@h:1/dump") == "https://alice@h:1/dump");
  CHECK(url_for_display("http://h:1/dump?who=a@b:c") == "http://h:1/dump?who=a@b:c");
  CHECK(url_for_display("http://[::1]:9717/") == "http://[::1]:9717/");
  // A URL that cannot connect still names itself without the password.
  CHECK_THAT(http_get("http://bob:hunter2@127.0.0.1:1/dump").error(),
             Catch::StartsWith("http://bob:***@127.0.0.1:1/dump: cannot connect"));
}

TEST_CASE("credentialsAreSentAndARefusalSaysHowToGiveThem", "[replay][http]") {
  std::string authorization;
  http::Server server{http::ServerOptions{"127.0.0.1:0", 2, std::chrono::milliseconds(5000)},
                      {{"/dump", "answers 401 without credentials",
                        [&](const http::Request& request, http::Response& response) {
                          authorization = std::string(request.header("Authorization").value_or(""));
                          if (authorization.empty()) {
                            response.send(401, "text/plain", "401 Unauthorized\n");
                          } else {
                            response.send(200, "application/octet-stream", "FLTREC");
                          }
                        }}}};
  std::string url = server.url();
  if (url.ends_with('/')) url.pop_back();
  url += "/dump";
  const auto refused = http_get(url);
  // The status once, although the body repeats it.
  CHECK(refused.error() == url +
                               ": 401 Unauthorized (replay's --user and "
                               "--password-file, or FLIGHTREC_USER and FLIGHTREC_PASSWORD)");
  ClientCredentials credentials;
  credentials.user = "alice";
  credentials.password = "s3cret";
  const auto fetched = http_get(url, {}, credentials);
  REQUIRE(fetched.ok());
  CHECK(*fetched == "FLTREC");
  CHECK(authorization == "Basic YWxpY2U6czNjcmV0");  // base64("alice:s3cret")
}

TEST_CASE("redirectsAreFollowed", "[replay][http]") {
  FixtureServer target;
  const std::string location = target.url("/dump?format=raw");
  http::Server redirect{
      http::ServerOptions{"127.0.0.1:0", 2, std::chrono::milliseconds(5000)},
      {{"/old", "redirects to the fixture", [&](const http::Request&, http::Response& response) {
          response.send(302, "text/plain", "moved\n", {{"Location", location}});
        }}}};
  std::string url = redirect.url();
  if (url.ends_with('/')) url.pop_back();
  const auto fetched = http_get(url + "/old");
  REQUIRE(fetched.ok());
  CHECK(*fetched == target.bytes);
}
