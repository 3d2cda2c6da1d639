#include "flightrec/dump/dump_route.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "curl.h"
#include "flightrec/http/server.h"
#include "temp_dir.h"
#include "test_recordings.h"

using namespace flightrec;
using namespace flightrec::dump;
using namespace flightrec::http;
using namespace flightrec::recording::testing;

namespace {

std::string curl(const std::string& args) { return flightrec::testing::curl(args, 10); }

// The known container frames (100 ms apart from the known blocks' start) in [from_ns, to_ns], as
// the container ring gives them.
store::ContainerFrameList known_container_frames_between(int64_t from_ns, int64_t to_ns) {
  store::ContainerFrameList selected;
  for (auto& frame : stored_container_frames(known_container_frames())) {
    if (frame->time_unix_ns >= from_ns && frame->time_unix_ns <= to_ns) {
      selected.push_back(std::move(frame));
    }
  }
  return selected;
}

using ContainerFrames = decltype(DumpSource::container_frames);

struct DumpServer {
  explicit DumpServer(uint64_t max_bytes = 1 << 20, bool containers = false,
                      ProcessBlockList process_blocks = known_process_blocks())
      : server({.listen_address = "127.0.0.1:0"},
               {dump_route(
                   {.blocks = [] { return known_blocks(); },
                    .metadata = [] { return known_metadata(); },
                    .max_bytes = [max_bytes] { return max_bytes; },
                    .now_real_ns = [] { return kKnownStartNs + 1'000'000; },
                    .process_blocks = [process_blocks] { return process_blocks; },
                    .container_frames = containers ? ContainerFrames(known_container_frames_between)
                                                   : ContainerFrames()})}) {}
  [[nodiscard]] std::string url(const std::string& query) const {
    return "'" + server.url() + "dump" + query + "'";
  }
  Server server;
};

constexpr const char* kCsvHeader = "time,\"cpu_seconds_total{cpu=\"\"0\"\"}\",load\r\n";

}  // namespace

TEST_CASE("/dump streams CSV and JSON of the window asked for", "[dump]") {
  DumpServer dump;
  CHECK(curl(dump.url("?format=csv")) == std::string(kCsvHeader) +
                                             "1700000000.000000,123.45,7\r\n"
                                             "1700000000.001000,123.46,\r\n"
                                             "1700000000.002000,123.5,-3\r\n");
  CHECK(curl(dump.url("?format=csv&from=-0s&to=now")) ==
        std::string(kCsvHeader) + "1700000000.001000,123.46,\r\n");
  CHECK(curl(dump.url("?format=csv&from=1700000000.0015")) ==
        std::string(kCsvHeader) + "1700000000.002000,123.5,-3\r\n");
  CHECK(curl(dump.url("?format=csv&to=2023-11-14T22:13:20Z")) ==
        std::string(kCsvHeader) + "1700000000.000000,123.45,7\r\n");
  const auto json = curl("-i " + dump.url(""));
  CHECK_THAT(json, Catch::Matchers::StartsWith("HTTP/1.1 200"));
  CHECK_THAT(json, Catch::Matchers::Contains("Content-Type: application/json"));
  CHECK_THAT(json, Catch::Matchers::Contains("Transfer-Encoding: chunked"));
  CHECK_THAT(json, Catch::Matchers::Contains("[1700000000.002000,123.5,-3]\n],"));
  CHECK_THAT(json, Catch::Matchers::Contains("\"processes\":[\n{\"time\":1700000000.000000"));
  CHECK_THAT(json, Catch::Matchers::Contains("null,null]]}\n],\n\"container_fast_read_columns\""));
  CHECK_THAT(json, Catch::Matchers::EndsWith("\"containers\":[\n]}\n"));
  const auto window = curl(dump.url("?format=json&from=-0s&to=now"));
  CHECK_THAT(window, !Catch::Matchers::Contains("\"time\":1700000000.000000"));
  CHECK_THAT(window, Catch::Matchers::Contains("\"time\":1700000000.001000"));
}

TEST_CASE("/dump?format=raw is a recording file that reads back", "[dump]") {
  DumpServer dump;
  const flightrec::testing::TempDir dir;
  const auto path = dir.file("dump.fltrec");
  curl("-o " + path.string() + " " + dump.url("?format=raw&from=-1s"));
  const auto result = recording::read_recording(path);
  REQUIRE(result.ok());
  CHECK(result->blocks.size() == 1);
  CHECK(result->process_frames == known_process_frames());
  CHECK(result->meta.series == known_metadata().series);
  CHECK(result->meta.extra.back() == std::pair<std::string, std::string>("dump.to", ""));
}

TEST_CASE("/dump holds the container frames of the window", "[dump][containers]") {
  DumpServer dump(1 << 20, true);
  const flightrec::testing::TempDir dir;
  const auto path = dir.file("dump.fltrec");
  curl("-o " + path.string() + " " + dump.url("?format=raw&from=-1s"));
  const auto result = recording::read_recording(path);
  REQUIRE(result.ok());
  CHECK(result->container_frames == known_container_frames());
  CHECK(result->process_frames == known_process_frames());

  // The window cuts container frames by their own time: the second and third only.
  curl("-o " + path.string() + " " + dump.url("?format=raw&from=1700000000.05&to=1700000000.25"));
  const auto window = recording::read_recording(path);
  REQUIRE(window.ok());
  REQUIRE(window->container_frames.size() == 2);
  CHECK(window->container_frames[0] == known_container_frames()[1]);
  CHECK(window->container_frames[1] == known_container_frames()[2]);

  const auto json = curl(dump.url("?format=json&from=1700000000.05&to=1700000000.15"));
  CHECK_THAT(json, Catch::Matchers::Contains("\"containers\":[\n{\"time\":1700000000.100000,"));
  CHECK_THAT(json, !Catch::Matchers::Contains("{\"time\":1700000000.200000,"));
}

TEST_CASE("/dump's JSON process rows name their containers", "[dump][containers]") {
  process::ProcessFrame frame{.time_unix_ns = kKnownStartNs + 100'000'000};
  frame.processes = {{.pid = 7,
                      .comm = "nginx",
                      .cgroup = "/kubepods/burstable/pod1234/" + std::string(64, 'a'),
                      .container_id = std::string(64, 'a')},
                     {.pid = 8, .comm = "sshd", .cgroup = "/system.slice/ssh.service"}};
  const std::vector<process::ProcessFrame> frames{frame};
  DumpServer dump(1 << 20, true, {store::ProcessBlock::encode(frames)});
  const auto json = curl(dump.url("?format=json"));
  CHECK_THAT(json, Catch::Matchers::Contains("\"container_id\",\"container_name\","));
  CHECK_THAT(json, Catch::Matchers::Contains("\"" + std::string(64, 'a') +
                                             "\",\"prod/checkout-7f9c/app\","));
  CHECK_THAT(json, Catch::Matchers::Contains("\"/system.slice/ssh.service\",\"\",\"\","));
}

TEST_CASE("/dump counts container frames in its size estimates", "[dump][containers]") {
  // Four frames of ~350 to ~700 bytes: ~2 kB raw, ~10 kB estimated as JSON.
  DumpServer small(1500, true);
  CHECK_THAT(curl("-i " + small.url("?format=raw&from=1700000000.05")),
             Catch::Matchers::StartsWith("HTTP/1.1 413"));
  DumpServer medium(6000, true);
  CHECK_THAT(curl("-i -o /dev/null -w '%{http_code}' " + medium.url("?format=raw")),
             Catch::Matchers::EndsWith("200"));
  CHECK_THAT(curl("-i " + medium.url("?format=json&from=1700000000.05")),
             Catch::Matchers::StartsWith("HTTP/1.1 413"));
}

TEST_CASE("/dump compresses with gzip when the client accepts it", "[dump]") {
  DumpServer dump;
  const auto headers =
      curl("-D - -o /dev/null -H 'Accept-Encoding: gzip' " + dump.url("?format=csv"));
  CHECK_THAT(headers, Catch::Matchers::Contains("Content-Encoding: gzip"));
  CHECK(curl("--compressed " + dump.url("?format=csv")) == curl(dump.url("?format=csv")));
  const auto refused = curl("-D - -o /dev/null -H 'Accept-Encoding: gzip;q=0' " + dump.url(""));
  CHECK_THAT(refused, !Catch::Matchers::Contains("Content-Encoding"));
  // The same reading of Accept-Encoding as /metrics (http::accepts_gzip): * accepts gzip, a
  // weight that is not a number refuses it.
  CHECK_THAT(curl("-D - -o /dev/null -H 'Accept-Encoding: *' " + dump.url("?format=csv")),
             Catch::Matchers::Contains("Content-Encoding: gzip"));
  CHECK_THAT(curl("-D - -o /dev/null -H 'Accept-Encoding: gzip;q=abc' " + dump.url("")),
             !Catch::Matchers::Contains("Content-Encoding"));
}

TEST_CASE("/dump answers HEAD with headers only", "[dump]") {
  DumpServer dump;
  const auto out = curl("-I " + dump.url("?format=csv"));
  CHECK_THAT(out, Catch::Matchers::StartsWith("HTTP/1.1 200"));
  CHECK_THAT(out, Catch::Matchers::Contains("Content-Type: text/csv"));
  CHECK_THAT(out, !Catch::Matchers::Contains("123.45"));
}

TEST_CASE("/dump refuses bad parameters with 400 naming them", "[dump]") {
  DumpServer dump;
  const auto [query, message] = GENERATE(table<const char*, const char*>({
      {"?from=yesterday",
       "from: \"yesterday\" is not a time (examples: 2026-11-30T05:00:00Z, 1764478800, -30s)"},
      {"?to=soon", "to: \"soon\" is not a time (examples: 2026-11-30T05:00:00Z, 1764478800, -30s)"},
      {"?format=xml", "format: \"xml\" is not one of json, csv, raw"},
      {"?form=json", "unknown parameter \"form\" (allowed: from, to, format)"},
      {"?from=now&to=-1m", "from (\"now\") is after to (\"-1m\")"},
      {"?from=-1s&from=-2s", "parameter \"from\" is given more than once"},
      {"?format=", "format: \"\" is not one of json, csv, raw"},
  }));
  const auto out = curl("-i " + dump.url(query));
  CHECK_THAT(out, Catch::Matchers::StartsWith("HTTP/1.1 400"));
  CHECK_THAT(out, Catch::Matchers::EndsWith(std::string(message) + "\n"));
}

TEST_CASE("/dump refuses with 413 what would exceed web.max_dump_bytes", "[dump]") {
  DumpServer dump(100);
  const auto out = curl("-i " + dump.url("?format=json"));
  CHECK_THAT(out, Catch::Matchers::StartsWith("HTTP/1.1 413"));
  CHECK_THAT(out, Catch::Matchers::Contains("web.max_dump_bytes (100 bytes)"));
  // One frame's estimate fits: narrowing the window is the way out.
  CHECK_THAT(curl("-i " + dump.url("?format=csv&from=now&to=now")),
             Catch::Matchers::StartsWith("HTTP/1.1 200"));
}

TEST_CASE("/dump counts process frames in the JSON size estimate", "[dump]") {
  // One system frame is estimated at 40 bytes; the process block's 4 rows and 2 sockets at 960.
  DumpServer dump(500);
  CHECK_THAT(curl("-i " + dump.url("?format=json&from=now&to=now")),
             Catch::Matchers::StartsWith("HTTP/1.1 413"));
  CHECK_THAT(curl("-i " + dump.url("?format=csv&from=now&to=now")),
             Catch::Matchers::StartsWith("HTTP/1.1 200"));
}

TEST_CASE("/dump's summary names its formats and those of the views added to it", "[dump]") {
  CHECK_THAT(dump_route({}).summary, Catch::EndsWith("?from=&to=&format=json|csv|raw"));
  const DumpView page{.name = "html", .serve = {}};
  CHECK_THAT(dump_route({}, {page}).summary,
             Catch::EndsWith("?from=&to=&format=json|csv|raw|html"));
}
