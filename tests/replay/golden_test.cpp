// Batch output at several times of the fixture, compared with tests/golden/replay/.
// FLIGHTREC_UPDATE_GOLDEN=1 rewrites the files (then review the diff).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "container_fixture.h"
#include "flightrec/replay/batch.h"
#include "replay_fixture.h"

using namespace flightrec::replay;
using namespace flightrec::replay::testing;

namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;  // rdbuf, not istreambuf_iterator: g++ 12 -O3 warns inside it
  text << in.rdbuf();
  return text.str();
}

void check_golden(const std::string& name, const std::string& actual) {
  const std::filesystem::path path = std::filesystem::path(FLIGHTREC_GOLDEN_DIR) / name;
  const char* update = std::getenv("FLIGHTREC_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
  }
  INFO("golden file " << path.string() << " (FLIGHTREC_UPDATE_GOLDEN=1 rewrites it)");
  CHECK(actual == read_file(path));
}

}  // namespace

TEST_CASE("batchOutputMatchesTheGoldenFiles", "[replay][golden]") {
  const Model model(fixture(), fixture_users());
  struct Case {
    std::string name;
    std::string at;
    Tab tab;
    BatchFormat format;
    Arrangement how;
  };
  const std::vector<Case> cases{
      {"processes_start.txt", "start", Tab::processes, BatchFormat::text, {}},
      {"processes_0.5s.txt", "+0.5s", Tab::processes, BatchFormat::text, {}},
      {"processes_1.5s.txt", "+1.5s", Tab::processes, BatchFormat::text, {}},
      {"processes_trigger.txt", "+2s", Tab::processes, BatchFormat::text, {}},
      {"processes_end_tree.txt", "end", Tab::processes, BatchFormat::text, {{}, false, "", true}},
      {"processes_end.json", "end", Tab::processes, BatchFormat::json, {}},
      {"network_end.txt", "-0s", Tab::network, BatchFormat::text, {}},
      {"connections_end.txt", "end", Tab::connections, BatchFormat::text, {}},
      {"listening_end.txt", "end", Tab::listening, BatchFormat::text, {}},
      {"sessions_end.txt", "end", Tab::sessions, BatchFormat::text, {}},
      {"sessions_end.json", "end", Tab::sessions, BatchFormat::json, {}},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.name) {
      const auto time = parse_cursor_time(c.at, model.timeline().start(), model.timeline().end());
      REQUIRE(time.ok());
      const BatchView view{model.timeline().at_or_before(*time), 1'000'000'000, c.tab, c.how};
      check_golden(c.name, render_batch(model, view, c.format));
    }
  }
}

TEST_CASE("containerBatchOutputMatchesTheGoldenFiles", "[replay][golden][containers]") {
  const Model model(container_fixture(), fixture_users());
  struct Case {
    std::string name;
    std::string at;
    BatchFormat format;
  };
  const std::vector<Case> cases{
      {"containers_1.5s.txt", "+1.5s", BatchFormat::text},
      {"containers_end.txt", "end", BatchFormat::text},
      {"containers_end.json", "end", BatchFormat::json},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.name) {
      const auto time = parse_cursor_time(c.at, model.timeline().start(), model.timeline().end());
      REQUIRE(time.ok());
      const BatchView view{
          model.timeline().at_or_before(*time), 1'000'000'000, Tab::containers, {}};
      check_golden(c.name, render_batch(model, view, c.format));
    }
  }
}
