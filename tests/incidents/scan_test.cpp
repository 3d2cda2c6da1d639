#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "flightrec/incidents/incident_file.h"
#include "flightrec/incidents/incident_store.h"
#include "incident_fixture.h"

using namespace flightrec::incidents;
using namespace incident_test;
namespace fs = std::filesystem;

namespace {

IncidentStoreOptions options_for(const fs::path& dir) {
  return {.dir = dir, .fallback_dir = dir / "fallback-unused"};
}

// A directory with one valid incident; returns its file.
fs::path seed_valid_incident(const fs::path& dir, const std::string& rule, int64_t offset_ms) {
  IncidentStore store(options_for(dir));
  const auto entry = write_incident(store, rule, offset_ms);
  REQUIRE(entry.status == IncidentStatus::written);
  return dir / (entry.id + ".flightrec");
}

}  // namespace

TEST_CASE("Start-up scan rebuilds the index from valid files with their incident fields",
          "[incidents]") {
  TempDir dir;
  const auto file = seed_valid_incident(dir.path(), "cpu_busy", 1500);

  IncidentStore reopened(options_for(dir.path()));
  const auto entries = reopened.list();
  REQUIRE(entries.size() == 1);
  const auto expected = make_info("cpu_busy", 1500);
  CHECK(entries[0].id == file.stem().string());
  CHECK(entries[0].incident.rule == "cpu_busy");
  CHECK(entries[0].incident.series == expected.series);
  CHECK(entries[0].incident.value == expected.value);
  CHECK(entries[0].incident.fired_at_ns == expected.fired_at_ns);
  CHECK(entries[0].incident.window_from_ns == expected.window_from_ns);
  CHECK(entries[0].incident.window_to_ns == expected.window_to_ns);
  CHECK(entries[0].bytes == fs::file_size(file));
  CHECK(entries[0].status == IncidentStatus::written);
  CHECK(reopened.stats().quarantined == 0);
}

TEST_CASE("Start-up scan quarantines a torn file and a file with a flipped byte", "[incidents]") {
  TempDir dir;
  const auto good = seed_valid_incident(dir.path(), "good", 0);
  const auto torn = seed_valid_incident(dir.path(), "torn", 1000);
  const auto flipped = seed_valid_incident(dir.path(), "flipped", 2000);

  std::string bytes = read_bytes(torn);
  write_bytes(torn, bytes.substr(0, bytes.size() - 40));
  bytes = read_bytes(flipped);
  // A byte near the end of the block's payload (before the trailer's 37 bytes): the block's CRC
  // catches it. A byte in the block's header could be read as a length and report "torn".
  const size_t inside_block = bytes.size() - 40;
  bytes[inside_block] = static_cast<char>(bytes[inside_block] ^ 0x10);
  write_bytes(flipped, bytes);

  StderrCapture log;
  IncidentStore store(options_for(dir.path()));
  const auto entries = store.list();
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].id == good.stem().string());
  CHECK(store.stats().quarantined == 2);
  for (const auto& bad : {torn, flipped}) {
    CHECK_FALSE(fs::exists(bad));
    CHECK(fs::exists(bad.string() + ".corrupt"));  // kept for inspection, never deleted
    CHECK(log.count("quarantined a torn or corrupt incident file\" file=" + bad.string()) == 1);
  }
  CHECK(log.count("error=\"torn:") == 1);
}

TEST_CASE("Quarantine never overwrites an earlier quarantined file", "[incidents]") {
  TempDir dir;
  const auto file = seed_valid_incident(dir.path(), "twice", 0);
  write_bytes(fs::path(file.string() + ".corrupt"), "earlier");
  write_bytes(file, "not a recording");

  StderrCapture log;
  IncidentStore store(options_for(dir.path()));
  CHECK(read_bytes(file.string() + ".corrupt") == "earlier");
  CHECK(read_bytes(file.string() + ".corrupt.2") == "not a recording");
  CHECK(store.stats().quarantined == 1);
}

TEST_CASE("Start-up scan removes temporaries left by a crash mid-write, and nothing else",
          "[incidents]") {
  TempDir dir;
  const auto good = seed_valid_incident(dir.path(), "good", 0);
  const fs::path leftover = dir.path() / "20251130T050001.000Z-x.flightrec.tmp.Ab12Cd";
  const fs::path unrelated = dir.path() / "notes.txt";
  write_bytes(leftover, "FLTREC\r\n partial");
  write_bytes(unrelated, "keep me");

  StderrCapture log;
  IncidentStore store(options_for(dir.path()));
  CHECK_FALSE(fs::exists(leftover));
  CHECK(fs::exists(unrelated));
  CHECK(fs::exists(good));
  CHECK(store.stats().temporaries_removed == 1);
  CHECK(store.list().size() == 1);
}

TEST_CASE("Start-up sweep removes only regular files named as the daemon names its temporaries",
          "[incidents]") {
  TempDir dir;
  const fs::path leftover = dir.path() / "20251130T050001.000Z-x.flightrec.tmp.Ab12Cd";
  write_bytes(leftover, "FLTREC\r\n partial");
  // A user's file with the marker in its name, but not mkostemp's six characters after it.
  const fs::path users_file = dir.path() / "keep.flightrec.tmp.user";
  write_bytes(users_file, "mine");
  // Directories, however named: AtomicFile makes only regular files.
  const fs::path empty_dir = dir.path() / "x.flightrec.tmp.1";
  const fs::path patterned_dir = dir.path() / "20251130T050002.000Z-x.flightrec.tmp.Zz9Yy8";
  fs::create_directory(empty_dir);
  fs::create_directory(patterned_dir);
  // A symbolic link with the exact name of a leftover: neither it nor what it points to goes.
  const fs::path outside = dir.path() / "elsewhere.txt";
  write_bytes(outside, "somebody's data");
  const fs::path link = dir.path() / "20251130T050003.000Z-x.flightrec.tmp.Qq1Ww2";
  fs::create_symlink(outside, link);

  StderrCapture log;
  IncidentStore store(options_for(dir.path()));
  CHECK_FALSE(fs::exists(leftover));
  CHECK(read_bytes(users_file) == "mine");
  CHECK(fs::is_directory(empty_dir));
  CHECK(fs::is_directory(patterned_dir));
  CHECK(fs::is_symlink(link));
  CHECK(read_bytes(outside) == "somebody's data");
  CHECK(store.stats().temporaries_removed == 1);
  CHECK(log.count("removed a temporary file") == 1);
  CHECK(log.count("cannot remove") == 0);
}

TEST_CASE("Start-up scan follows no symbolic link and leaves what is not a regular file alone",
          "[incidents]") {
  TempDir dir;
  const auto good = seed_valid_incident(dir.path(), "good", 0);
  // A file that is no recording, outside the store; a link named like an incident points to it.
  // Followed, it would be read as root and judged corrupt, and the link renamed to ".corrupt".
  const fs::path outside = dir.path() / "elsewhere.txt";
  write_bytes(outside, "somebody's data");
  const fs::path link = dir.path() / "20251130T050003.000Z-link.flightrec";
  fs::create_symlink(outside, link);
  // A link to a good recording is not indexed either: it is no file the store wrote.
  const fs::path good_link = dir.path() / "20251130T050004.000Z-goodlink.flightrec";
  fs::create_symlink(good, good_link);
  const fs::path a_directory = dir.path() / "20251130T050005.000Z-dir.flightrec";
  fs::create_directory(a_directory);

  StderrCapture log;
  IncidentStore store(options_for(dir.path()));
  REQUIRE(store.list().size() == 1);
  CHECK(store.list()[0].id == good.stem().string());
  CHECK(store.stats().quarantined == 0);
  CHECK(fs::is_symlink(link));
  CHECK_FALSE(fs::exists(link.string() + ".corrupt"));
  CHECK(read_bytes(outside) == "somebody's data");
  CHECK(fs::is_symlink(good_link));
  CHECK(fs::is_directory(a_directory));
  // Each named once, in at most two lines: the first at once, the rest counted.
  const std::string text = log.text();
  CHECK(log.count("skipping an entry named like an incident that is not a regular file") == 2);
  for (const auto& entry : {link, good_link, a_directory}) {
    CHECK_THAT(text, Catch::Matchers::Contains(entry.filename().string()));
  }
  CHECK_THAT(text, Catch::Matchers::Contains("a symbolic link, not a regular file"));
  CHECK_THAT(text, Catch::Matchers::Contains("a directory, not a regular file"));
  CHECK(log.count("quarantined a torn") == 0);

  // The CLI's listing says the same.
  const auto scanned = scan_incident_directory(dir.path());
  REQUIRE(scanned);
  const DirectoryScan& scan = *scanned;
  CHECK(scan.valid.size() == 1);
  CHECK(scan.bad.empty());
  CHECK(scan.skipped.size() == 3);
}

TEST_CASE("A symbolic link put in a listed file's place is not followed", "[incidents]") {
  TempDir dir;
  const auto file = seed_valid_incident(dir.path(), "swapped", 0);
  const fs::path outside = dir.path() / "elsewhere.txt";
  write_bytes(outside, "somebody's data");
  fs::remove(file);
  fs::create_symlink(outside, file);
  const FileCheck check = check_incident_file(file);
  CHECK(check.state == FileState::not_regular);
  CHECK(check.error == "a symbolic link, not a regular file");
}

TEST_CASE("Directory scan only reads: the CLI can list while a daemon writes", "[incidents]") {
  TempDir dir;
  const auto good = seed_valid_incident(dir.path(), "good", 0);
  const fs::path torn = dir.path() / "20251130T050009.000Z-torn.flightrec";
  write_bytes(torn, read_bytes(good).substr(0, 30));
  const fs::path leftover = dir.path() / "20251130T050001.000Z-x.flightrec.tmp.Ab12Cd";
  write_bytes(leftover, "partial");

  const auto scanned = scan_incident_directory(dir.path());
  REQUIRE(scanned);
  const DirectoryScan& scan = *scanned;
  CHECK(scan.valid.size() == 1);
  REQUIRE(scan.bad.size() == 1);
  CHECK(scan.bad[0].path == torn);
  CHECK_THAT(scan.bad[0].error, Catch::Matchers::StartsWith("torn"));
  CHECK(scan.temporaries.size() == 1);
  CHECK(fs::exists(torn));
  CHECK(fs::exists(leftover));
}

TEST_CASE("Configured directory that cannot be created falls back and logs which one is used",
          "[incidents]") {
  TempDir dir;
  const fs::path blocker = dir.path() / "a-file";
  write_bytes(blocker, "x");  // a regular file where the parent directory should be
  StderrCapture log;
  IncidentStore store({.dir = blocker / "incidents", .fallback_dir = dir.path() / "fallback"});
  CHECK(store.dir() == dir.path() / "fallback");
  CHECK(log.count("using the fallback") == 1);
  CHECK(log.count("dir=" + (dir.path() / "fallback").string()) == 1);
  CHECK(write_incident(store, "r", 0).status == IncidentStatus::written);
}

TEST_CASE("Incident files written before reasons were stored still list, without one",
          "[incidents]") {
  TempDir dir;
  const fs::path data = FLIGHTREC_INCIDENTS_TEST_DATA;
  // Files as IncidentStore wrote them before condition and reason joined the metadata.
  fs::copy_file(data / "before_reason_cpu_busy.flightrec",
                dir.path() / "20251130T050000.010Z-cpu_busy.flightrec");
  fs::copy_file(data / "before_reason_manual.flightrec",
                dir.path() / "20251130T050000.020Z-manual.flightrec");
  StderrCapture log;
  IncidentStore store(options_for(dir.path()));
  const auto entries = store.list();
  REQUIRE(entries.size() == 2);
  const auto& manual = entries[0].incident;
  const auto& cpu = entries[1].incident;
  CHECK(manual.rule == "manual");
  // Nor did they store a kind: the rule names of the time say which.
  CHECK(manual.kind == flightrec::model::IncidentKind::manual);
  CHECK(cpu.kind == flightrec::model::IncidentKind::rule);
  CHECK(manual.reason.empty());
  CHECK(std::isnan(manual.value));
  CHECK(cpu.rule == "cpu_busy");
  CHECK(cpu.condition.empty());
  CHECK(cpu.series == "cpu_busy_ratio{cpu=\"total\"}");
  CHECK(cpu.value == 0.93);
  CHECK(cpu.fired_at_ns == 1764478800010000000);
  CHECK(store.stats().quarantined == 0);
}

TEST_CASE("An incidents.dir that is a dangling symbolic link or a file is named for what it is",
          "[incidents]") {
  TempDir dir;
  const fs::path dangling = dir.path() / "dangling";
  fs::create_symlink(dir.path() / "gone-target", dangling);
  const fs::path file = dir.path() / "a-file";
  write_bytes(file, "x");
  StderrCapture log;
  {
    IncidentStore store({.dir = dangling, .fallback_dir = dir.path() / "fallback"});
    CHECK(store.dir() == dir.path() / "fallback");
  }
  {
    IncidentStore store({.dir = file, .fallback_dir = dir.path() / "fallback"});
    CHECK(store.dir() == dir.path() / "fallback");
  }
  CHECK(log.count("configured=" + dangling.string() +
                  " error=\"a dangling symbolic link: its target " +
                  (dir.path() / "gone-target").string() + " does not exist\"") == 1);
  CHECK(log.count("configured=" + file.string() + " error=\"a regular file, not a directory\"") ==
        1);
  CHECK_FALSE(fs::exists(dir.path() / "gone-target"));  // not made behind the link's back
}
