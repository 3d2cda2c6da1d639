#include <catch2/catch.hpp>
#include <filesystem>

#include "flightrec/incidents/incident_store.h"
#include "incident_fixture.h"

using namespace flightrec::incidents;
using namespace incident_test;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> ids_newest_first(const IncidentStore& store) {
  std::vector<std::string> ids;
  for (const auto& entry : store.list()) ids.push_back(entry.id);
  return ids;
}

}  // namespace

TEST_CASE("Retention by count deletes the oldest incidents first", "[incidents]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path(), .max_count = 3});
  std::vector<IncidentEntry> written;
  // Written out of time order: the oldest by fired_at goes first, not the first written.
  for (const int64_t offset_ms : {3000, 1000, 4000, 2000, 5000}) {
    written.push_back(write_incident(store, "r", offset_ms));
  }
  CHECK(ids_newest_first(store) ==
        std::vector<std::string>{written[4].id, written[2].id, written[0].id});
  CHECK_FALSE(fs::exists(dir.path() / (written[1].id + ".flightrec")));
  CHECK_FALSE(fs::exists(dir.path() / (written[3].id + ".flightrec")));
  CHECK(fs::exists(dir.path() / (written[0].id + ".flightrec")));
  CHECK(store.stats().retention_deleted == 2);
}

TEST_CASE("Retention by bytes deletes the oldest until the total fits", "[incidents]") {
  TempDir dir;
  StderrCapture log;
  // Measure one file first: every test incident has the same size.
  uint64_t size = 0;
  {
    TempDir probe;
    IncidentStore sizing({.dir = probe.path()});
    size = write_incident(sizing, "r", 0).bytes;
  }
  REQUIRE(size > 0);
  IncidentStore store({.dir = dir.path(), .max_bytes = size * 2 + size / 2});
  const auto a = write_incident(store, "r", 1000);
  const auto b = write_incident(store, "r", 2000);
  const auto c = write_incident(store, "r", 3000);
  CHECK(ids_newest_first(store) == std::vector<std::string>{c.id, b.id});
  CHECK_FALSE(fs::exists(dir.path() / (a.id + ".flightrec")));
  CHECK(store.stats().retention_deleted == 1);
}

TEST_CASE("Retention keeps the newest incident even when it alone exceeds max_bytes",
          "[incidents]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path(), .max_bytes = 10});
  write_incident(store, "r", 1000);
  const auto newest = write_incident(store, "r", 2000);
  CHECK(ids_newest_first(store) == std::vector<std::string>{newest.id});
}

TEST_CASE("Retention applies at start-up when the limits were lowered", "[incidents]") {
  TempDir dir;
  StderrCapture log;
  std::vector<std::string> ids;
  {
    IncidentStore store({.dir = dir.path()});
    for (int i = 0; i < 4; ++i) ids.push_back(write_incident(store, "r", i * 1000).id);
  }
  IncidentStore reopened({.dir = dir.path(), .max_count = 2});
  CHECK(ids_newest_first(reopened) == std::vector<std::string>{ids[3], ids[2]});
}

TEST_CASE("Two incidents in the same millisecond get distinct ids", "[incidents]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  const auto first = write_incident(store, "r", 0);
  const auto second = write_incident(store, "r", 0);
  CHECK(first.id != second.id);
  CHECK(second.id == first.id + "-2");
  CHECK(store.list().size() == 2);
}
