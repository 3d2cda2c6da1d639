#include <catch2/catch.hpp>
#include <cstdlib>
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

// The size of one incident file, written in a scratch directory: every test incident has it.
uint64_t one_incident_bytes() {
  TempDir probe;
  IncidentStore sizing({.dir = probe.path()});
  const uint64_t size = write_incident(sizing, "r", 0).bytes;
  REQUIRE(size > 0);
  return size;
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
  const uint64_t size = one_incident_bytes();
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

namespace {

fs::path file_of_id(const TempDir& dir, const std::string& id) {
  return dir.path() / (id + ".flightrec");
}

size_t incident_files_in(const TempDir& dir) {
  size_t count = 0;
  for (const auto& item : fs::directory_iterator(dir.path())) {
    if (item.path().extension() == ".flightrec") ++count;
  }
  return count;
}

// Replaces an incident file by a non-empty directory of the same name: the unlink retention
// does fails (ENOTEMPTY), as it does for a file made immutable with chattr +i.
void make_undeletable(const fs::path& file) {
  fs::remove(file);
  fs::create_directory(file);
  write_bytes(file / "evidence", "kept");
}

}  // namespace

TEST_CASE("Retention skips an incident it cannot delete and deletes the next oldest instead",
          "[incidents]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path(), .max_count = 3});
  const auto stuck = write_incident(store, "r", 1000);
  make_undeletable(file_of_id(dir, stuck.id));
  std::vector<std::string> ids;
  for (int i = 2; i <= 7; ++i) ids.push_back(write_incident(store, "r", i * 1000).id);
  // The stuck one counts toward max_count: it and the two newest are all that is left.
  CHECK(ids_newest_first(store) == std::vector<std::string>{ids[5], ids[4], stuck.id});
  CHECK(incident_files_in(dir) == 3);
  CHECK(store.stats().retention_deleted == 4);
  CHECK(log.count("cannot delete an incident for retention") == 1);
  CHECK(log.count("incident deleted by retention") == 4);
}

TEST_CASE("Retention by bytes counts an incident it cannot delete", "[incidents]") {
  TempDir dir;
  StderrCapture log;
  const uint64_t size = one_incident_bytes();
  IncidentStore store({.dir = dir.path(), .max_bytes = size * 3 + size / 2});
  const auto stuck = write_incident(store, "r", 1000);
  make_undeletable(file_of_id(dir, stuck.id));
  std::vector<std::string> ids;
  for (int i = 2; i <= 5; ++i) ids.push_back(write_incident(store, "r", i * 1000).id);
  CHECK(ids_newest_first(store) == std::vector<std::string>{ids[3], ids[2], stuck.id});
}

TEST_CASE("Retention deletes a formerly undeletable incident once it can", "[incidents]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path(), .max_count = 2});
  const auto stuck = write_incident(store, "r", 1000);
  const fs::path stuck_file = file_of_id(dir, stuck.id);
  make_undeletable(stuck_file);
  write_incident(store, "r", 2000);
  const auto third = write_incident(store, "r", 3000);
  REQUIRE(ids_newest_first(store).back() == stuck.id);
  fs::remove(stuck_file / "evidence");  // an empty directory: remove() succeeds
  const auto fourth = write_incident(store, "r", 4000);
  CHECK(ids_newest_first(store) == std::vector<std::string>{fourth.id, third.id});
  CHECK_FALSE(fs::exists(stuck_file));
}

TEST_CASE("Retention skips an immutable incident file (chattr +i)", "[incidents]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path(), .max_count = 2});
  const auto stuck = write_incident(store, "r", 1000);
  const std::string file = file_of_id(dir, stuck.id).string();
  // Needs root (CAP_LINUX_IMMUTABLE) and a file system with the attribute, e.g. ext4 (not tmpfs).
  if (std::system(("chattr +i '" + file + "' 2>/dev/null").c_str()) != 0) {
    WARN("chattr +i is not available here (not root, or the file system lacks it): skipped");
    return;
  }
  std::vector<std::string> ids;
  for (int i = 2; i <= 5; ++i) ids.push_back(write_incident(store, "r", i * 1000).id);
  const auto listed = ids_newest_first(store);
  const size_t files = incident_files_in(dir);
  const std::string logged = log.text();
  // Before any CHECK, so that TempDir can remove the file whatever happens.
  const bool restored = std::system(("chattr -i '" + file + "'").c_str()) == 0;
  CHECK(restored);
  CHECK(listed == std::vector<std::string>{ids[3], stuck.id});
  CHECK(files == 2);
  CHECK(log.count("cannot delete an incident for retention") == 1);
  CHECK_THAT(logged, Catch::Matchers::Contains("Operation not permitted"));
}

TEST_CASE("A flood of manual incidents never deletes a rule-fired one", "[incidents][manual]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path(), .max_count = 3});
  const auto cpu = write_incident(store, "cpu_hot", 1000);
  const auto mem = write_incident(store, "mem_high", 2000);
  std::vector<IncidentEntry> manual;
  for (int64_t offset_ms = 3000; offset_ms < 8000; offset_ms += 1000) {
    manual.push_back(write_incident(store, "manual", offset_ms));
  }
  // The two rule-fired incidents stay; the manual ones share the one place left, newest kept.
  CHECK(ids_newest_first(store) == std::vector<std::string>{manual.back().id, mem.id, cpu.id});
  CHECK(store.stats().retention_deleted == 4);
}

TEST_CASE("A manual incident is not kept when only rule-fired incidents fill the store",
          "[incidents][manual]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path(), .max_count = 2});
  const auto a = write_incident(store, "cpu_hot", 1000);
  const auto b = write_incident(store, "cpu_hot", 2000);
  const auto manual = write_incident(store, "manual", 3000);
  CHECK(ids_newest_first(store) == std::vector<std::string>{b.id, a.id});
  CHECK_FALSE(fs::exists(dir.path() / (manual.id + ".flightrec")));
  CHECK_THAT(log.text(), Catch::Matchers::Contains("manual incident not kept"));
}

TEST_CASE("A rule-fired incident makes room by deleting manual incidents first",
          "[incidents][manual]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path(), .max_count = 3});
  const auto a = write_incident(store, "cpu_hot", 1000);
  const auto b = write_incident(store, "manual", 2000);
  const auto c = write_incident(store, "manual", 3000);
  const auto d = write_incident(store, "cpu_hot", 4000);
  // b goes although a is older: a was captured by a rule.
  CHECK(ids_newest_first(store) == std::vector<std::string>{d.id, c.id, a.id});
  CHECK_FALSE(fs::exists(dir.path() / (b.id + ".flightrec")));
}

TEST_CASE("New bounds from a reload apply at once, oldest first", "[incidents][reload]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path(), .max_count = 10});
  const auto a = write_incident(store, "cpu_hot", 1000);
  const auto b = write_incident(store, "cpu_hot", 2000);
  const auto c = write_incident(store, "cpu_hot", 3000);
  store.set_bounds(2, 1ull << 30);
  CHECK(ids_newest_first(store) == std::vector<std::string>{c.id, b.id});
  CHECK_FALSE(fs::exists(dir.path() / (a.id + ".flightrec")));
}

TEST_CASE("The stats name each rule's newest written incident, for the counter's exemplar",
          "[incidents]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  CHECK(store.stats().by_rule.empty());
  const auto later = write_incident(store, "cpu", 2000);
  // Written after, fired before: not the newest.
  write_incident(store, "cpu", 1000);
  const auto other = write_incident(store, "memory", 500);
  const auto stats = store.stats();
  CHECK(stats.by_rule.at("cpu").written == 2);
  CHECK(stats.by_rule.at("cpu").last_written_id == later.id);
  CHECK(stats.by_rule.at("cpu").last_written_fired_ns == kT0 + 2'000'000'000);
  CHECK(stats.by_rule.at("memory").last_written_id == other.id);
}
