#include "flightrec/incidents/stored_file.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "incident_fixture.h"

using namespace flightrec::incidents;
using namespace incident_test;
namespace fs = std::filesystem;

TEST_CASE("open_stored_file opens a written incident at its start with its size", "[incidents]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  const auto entry = write_incident(store, "cpu", 1000);
  auto stored = open_stored_file(store, entry.id);
  REQUIRE(stored.ok());
  CHECK(stored.path == dir.path() / (entry.id + ".flightrec"));
  CHECK(stored.bytes == entry.bytes);
  std::string bytes(stored.bytes, '\0');
  stored.file.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  CHECK(bytes == read_bytes(stored.path));
}

TEST_CASE("open_stored_file answers 400 for a bad id and 404 for unknown or failed ones",
          "[incidents]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  CHECK(open_stored_file(store, "../x").status == 400);
  CHECK(open_stored_file(store, std::string("a\0b", 3)).status == 400);
  const auto unknown = open_stored_file(store, "20251130T050000.000Z-nope");
  CHECK(unknown.status == 404);
  CHECK(unknown.error == "no incident 20251130T050000.000Z-nope");

  fs::remove_all(dir.path());
  write_bytes(dir.path(), "in the way");  // a file where the directory should be: writes fail
  const auto failed = write_incident(store, "cpu", 1000);
  fs::remove(dir.path());
  const auto answer = open_stored_file(store, failed.id);
  CHECK(answer.status == 404);
  CHECK(answer.error == "incident " + failed.id + " was not written: " + failed.error);
}

TEST_CASE("open_stored_file answers 404 for a file deleted behind the daemon", "[incidents]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  const auto entry = write_incident(store, "cpu", 1000);
  fs::remove(dir.path() / (entry.id + ".flightrec"));
  const auto stored = open_stored_file(store, entry.id);
  CHECK(stored.status == 404);
  CHECK(stored.error == "incident " + entry.id + " is no longer stored");
}

TEST_CASE("open_stored_file answers 500 naming the path when a directory replaced the file",
          "[incidents]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  const auto entry = write_incident(store, "cpu", 1000);
  const fs::path file = dir.path() / (entry.id + ".flightrec");
  fs::remove(file);
  fs::create_directory(file);
  const auto stored = open_stored_file(store, entry.id);
  CHECK(stored.status == 500);
  CHECK(stored.error == "incident " + entry.id + ": " + file.string() + " is not a regular file");
}
