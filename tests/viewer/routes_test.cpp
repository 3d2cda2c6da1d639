#include "flightrec/viewer/routes.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

#include "curl.h"
#include "flightrec/container/frame/container_frame_codec.h"
#include "flightrec/http/server.h"
#include "flightrec/incidents/routes.h"
#include "flightrec/incidents/stored_file.h"
#include "flightrec/recording/recording_file.h"
#include "synthetic_recording.h"
#include "temp_dir.h"

namespace flightrec::viewer {
namespace {

using flightrec::testing::curl;
using flightrec::testing::TempDir;
using testing::synthetic_recording;

struct ViewerServer {
  TempDir dir;
  testing::SyntheticRecording rec = synthetic_recording(3'000, 1'500);
  incidents::IncidentStore store{{.dir = dir.path() / "incidents"}};
  std::string id;
  std::unique_ptr<http::Server> server;

  explicit ViewerServer(uint64_t max_file_bytes = kDefaultMaxViewFileBytes) {
    id = store
             .write({.rule = "cpu_burst", .value = 0.97, .fired_at_ns = rec.trigger_ns},
                    rec.metadata, rec.blocks, rec.process_blocks)
             .id;
    http::Router router;
    router.add(incidents::incidents_routes(store));
    router.add(incident_view_route(
        [this](std::string_view incident) { return incidents::open_stored_file(store, incident); },
        max_file_bytes));
    router.add(dump::dump_route({.blocks = [this] { return rec.blocks; },
                                 .metadata = [this] { return rec.metadata; },
                                 .process_blocks = [this] { return rec.process_blocks; }},
                                {dump_page()}));
    server = std::make_unique<http::Server>(http::ServerOptions{.listen_address = "127.0.0.1:0"},
                                            std::move(router));
  }
  [[nodiscard]] std::string get(const std::string& path, const std::string& args = "") const {
    return curl(args + " '" + server->url() + path.substr(1) + "'");
  }
};

// The response's status line and headers, without Date (which may tick between two requests).
std::string headers_without_date(const std::string& response) {
  std::istringstream lines(response);
  std::string kept;
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("Date:")) kept += line + "\n";
  }
  return kept;
}

TEST_CASE("shouldServeAnIncidentAsAPageWithItsTrigger") {
  ViewerServer s;
  const auto response = s.get("/incidents/" + s.id + "/view", "-i");
  CHECK(response.find("HTTP/1.1 200") == 0);
  CHECK(response.find("Content-Type: text/html; charset=utf-8") != std::string::npos);
  CHECK(response.find("Content-Security-Policy: default-src 'none'") != std::string::npos);
  CHECK(response.find("<title>Incident " + s.id + " - flightrec</title>") != std::string::npos);
  CHECK(response.find("\"trigger\":1764478801.5") != std::string::npos);
  // No series was recorded for it, so none is listed.
  CHECK(response.find(
            "\"details\":[[\"kind\",\"rule\"],[\"rule\",\"cpu_burst\"],[\"value\",\"0.97\"],") !=
        std::string::npos);
}

TEST_CASE("shouldCompressThePageWhenTheClientAcceptsGzip") {
  ViewerServer s;
  const auto headers =
      s.get("/incidents/" + s.id + "/view", "-D - -o /dev/null -H 'Accept-Encoding: gzip'");
  CHECK(headers.find("Content-Encoding: gzip") != std::string::npos);
  const auto page = s.get("/incidents/" + s.id + "/view", "--compressed");
  CHECK(page.find("</html>") != std::string::npos);
}

TEST_CASE("shouldAnswerHeadWithTheHeadersOfGet") {
  ViewerServer s;
  for (const std::string& path :
       {"/incidents/" + s.id + "/view", std::string("/dump?format=html&from=1764478801")}) {
    for (const std::string_view encoding : {"", "-H 'Accept-Encoding: gzip' "}) {
      INFO(path << " " << encoding);
      const std::string args(encoding);
      const auto get = headers_without_date(s.get(path, args + "-D - -o /dev/null"));
      CHECK(get.find("Content-Length: 0") == std::string::npos);
      CHECK(headers_without_date(s.get(path, args + "-I")) == get);
    }
  }
}

TEST_CASE("shouldPassOtherIncidentPathsToTheIncidentsHandler") {
  ViewerServer s;
  CHECK(s.get("/incidents").find("\"id\":\"" + s.id + "\"") != std::string::npos);
  CHECK(s.get("/incidents/" + s.id + "?format=csv").find("time,") == 0);
}

TEST_CASE("shouldAnswerUnknownBadAndOversizedIncidentsWithTheirStatus") {
  ViewerServer s;
  CHECK(s.get("/incidents/20990101T000000.000Z-none/view", "-w ' %{http_code}'").ends_with(" 404"));
  CHECK(s.get("/incidents/bad%20id/view", "-w ' %{http_code}'").ends_with(" 400"));
  ViewerServer small(1024);
  const auto refused = small.get("/incidents/" + small.id + "/view", "-w ' %{http_code}'");
  CHECK(refused.ends_with(" 413"));
  CHECK(refused.find("more than the viewer reads (1024 bytes)") != std::string::npos);
}

TEST_CASE("shouldRefuseParametersTheIncidentPageDoesNotTake") {
  ViewerServer s;
  const auto response = s.get("/incidents/" + s.id + "/view?format=json", "-i");
  CHECK(response.find("HTTP/1.1 400") == 0);
  CHECK(response.find("unknown parameter \"format\" (allowed: none)") != std::string::npos);
}

TEST_CASE("shouldServeTheDumpWindowAsAPageAndOtherFormatsAsBefore") {
  ViewerServer s;
  const auto page = s.get("/dump?format=html&from=1764478801&to=1764478802", "-i");
  CHECK(page.find("HTTP/1.1 200") == 0);
  CHECK(page.find("\"frames\":1001,") != std::string::npos);
  CHECK(page.find("\"pid\":400,") != std::string::npos);
  CHECK(s.get("/dump?format=csv&from=1764478801&to=1764478801").find("time,") == 0);
  const auto bad = s.get("/dump?format=html&from=yesterday", "-w ' %{http_code}'");
  CHECK(bad.find("from: \"yesterday\" is not a time") != std::string::npos);
  CHECK(bad.ends_with(" 400"));
  CHECK(s.get("/dump?format=html&form=1", "-w ' %{http_code}'").ends_with(" 400"));
  const auto wrong_case = s.get("/dump?format=HTML", "-w ' %{http_code}'");
  CHECK(wrong_case.find("format: \"HTML\" is not one of json, csv, raw, html\n") == 0);
  CHECK(wrong_case.ends_with(" 400"));
}

TEST_CASE("shouldShowTheTopProcessesOfAnIncidentFromItsProcessBlocks", "[viewer][routes]") {
  ViewerServer s;
  const auto page = s.get("/incidents/" + s.id + "/view", "--compressed");
  // The burner (pid 400) and postgres come from the incident file's process records, decoded
  // only around the trigger.
  CHECK(page.find("postgres -D /var/lib/postgresql") != std::string::npos);
}

TEST_CASE("shouldShowTheContainersOfAnIncidentFileThatHasThem") {
  TempDir dir;
  const auto rec = synthetic_recording(2'000, 1'000);
  // Two frames of a throttled container a second apart: its reads and one kernel episode.
  store::ContainerFrameList frames;
  for (int k = 0; k < 2; ++k) {
    container::ContainerFrame frame;
    frame.time_unix_ns = testing::kStartNs + k * 1'000'000'000;
    container::ContainerRow row;
    row.path = "/system.slice/docker-web.scope";
    row.id = "web";
    row.name = "web";
    row.stats.cpu = {.usage_us = k * 200'000,
                     .periods = k * 10,
                     .throttled_periods = k * 8,
                     .throttled_us = k * 400'000};
    row.stats.bandwidth = {.quota_us = 20'000, .period_us = 100'000};
    row.stats.memory.usage_bytes = 64 << 20;
    frame.containers = {row};
    frames.push_back(std::make_shared<const store::StoredContainerFrame>(
        store::StoredContainerFrame{frame.time_unix_ns, container::encode_container_frame(frame)}));
  }
  const auto path = dir.path() / "incident.flightrec";
  REQUIRE(recording::write_recording_atomically(path, rec.metadata, rec.blocks, rec.process_blocks,
                                                frames)
              .ok());
  http::Router router;
  router.add(incident_view_route([&](std::string_view) {
    dump::StoredFile stored;
    stored.path = path;
    stored.file.open(path, std::ios::binary);
    stored.bytes = std::filesystem::file_size(path);
    return stored;
  }));
  // The ring's frames for /dump?format=html.
  router.add(dump::dump_route({.blocks = [&] { return rec.blocks; },
                               .metadata = [&] { return rec.metadata; },
                               .process_blocks = [&] { return rec.process_blocks; },
                               .container_frames = [&](int64_t, int64_t) { return frames; }},
                              {dump_page()}));
  http::Server server(http::ServerOptions{.listen_address = "127.0.0.1:0"}, std::move(router));
  const auto page = curl("'" + server.url() + "incidents/x/view'");
  CHECK(page.find("<section id=\"containers\" hidden><h2>Containers</h2>") != std::string::npos);
  CHECK(page.find(
            "\"containers\":[\n{\"name\":\"web\",\"path\":\"/system.slice/docker-web.scope\"") !=
        std::string::npos);
  CHECK(page.find("\"reasons\":[\"throttled\",\"top CPU\"") != std::string::npos);
  CHECK(page.find("\"throttled_periods\":8,\"periods\":10") != std::string::npos);
  const auto dump = curl("'" + server.url() + "dump?format=html'");
  CHECK(dump.find("\"containers\":[\n{\"name\":\"web\"") != std::string::npos);
}

}  // namespace
}  // namespace flightrec::viewer
