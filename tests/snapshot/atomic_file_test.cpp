#include "flightrec/snapshot/atomic_file.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "temp_dir.h"

using flightrec::snapshot::write_file_atomically;
using flightrec::testing::read_file;
using flightrec::testing::TempDir;
namespace fs = std::filesystem;

TEST_CASE("write_file_atomically writes the whole content and leaves no temporary file",
          "[atomic_file]") {
  const TempDir dir("flightrec-atomic");
  const std::string big(1 << 20, 'z');
  const auto result = write_file_atomically(dir.path() / "snap.json", big);
  REQUIRE(result.ok());
  CHECK(read_file(dir.path() / "snap.json") == big);
  CHECK(dir.names() == std::vector<std::string>{"snap.json"});
}

TEST_CASE("write_file_atomically replaces an existing file", "[atomic_file]") {
  const TempDir dir("flightrec-atomic-replace");
  std::ofstream(dir.path() / "out.txt") << "old content that is longer than the new";
  REQUIRE(write_file_atomically(dir.path() / "out.txt", "new").ok());
  CHECK(read_file(dir.path() / "out.txt") == "new");
  CHECK(dir.names() == std::vector<std::string>{"out.txt"});
}

TEST_CASE("write_file_atomically creates the file readable by its owner only", "[atomic_file]") {
  const TempDir dir("flightrec-atomic-mode");
  REQUIRE(write_file_atomically(dir.path() / "secret", "cmdline").ok());
  const auto perms = fs::status(dir.path() / "secret").permissions();
  CHECK((perms & (fs::perms::group_all | fs::perms::others_all)) == fs::perms::none);
}

TEST_CASE("write_file_atomically names the path when its directory cannot be written",
          "[atomic_file]") {
  const fs::path target = "/nonexistent/flightrec-dir/snap.json";
  const auto result = write_file_atomically(target, "x");
  REQUIRE_FALSE(result.ok());
  CHECK_THAT(result.error, Catch::Matchers::Contains(target.string()));
  CHECK_THAT(result.error, Catch::Matchers::Contains("No such file or directory"));
}

TEST_CASE("write_file_atomically removes its temporary file when the rename fails",
          "[atomic_file]") {
  const TempDir dir("flightrec-atomic-rename");
  // A non-empty directory where the file should go: rename cannot replace it.
  fs::create_directories(dir.path() / "taken" / "inside");
  const auto result = write_file_atomically(dir.path() / "taken", "x");
  REQUIRE_FALSE(result.ok());
  CHECK_THAT(result.error, Catch::Matchers::Contains((dir.path() / "taken").string()));
  CHECK(dir.names() == std::vector<std::string>{"taken"});
  CHECK(fs::is_directory(dir.path() / "taken" / "inside"));
}
