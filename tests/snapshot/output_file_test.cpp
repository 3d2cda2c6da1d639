#include "flightrec/snapshot/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "flightrec/common/fd.h"
#include "temp_dir.h"

using flightrec::Fd;
using flightrec::snapshot::write_output_file;
using flightrec::testing::read_file;
using flightrec::testing::TempDir;
namespace fs = std::filesystem;

TEST_CASE("write_output_file creates a new file", "[output_file]") {
  const TempDir dir("flightrec-output-new");
  REQUIRE(write_output_file(dir.path() / "snap.json", "{}\n").ok());
  CHECK(read_file(dir.path() / "snap.json") == "{}\n");
  CHECK(dir.names() == std::vector<std::string>{"snap.json"});
}

TEST_CASE("write_output_file replaces the file a symlink leads to and keeps the link",
          "[output_file]") {
  const TempDir dir("flightrec-output-link");
  fs::create_directories(dir.path() / "real");
  std::ofstream(dir.path() / "real" / "target.txt") << "old content";
  // Relative links, two hops: each is resolved against the directory that holds it.
  fs::create_symlink("real/target.txt", dir.path() / "middle");
  fs::create_symlink("middle", dir.path() / "link.json");

  REQUIRE(write_output_file(dir.path() / "link.json", "new").ok());
  CHECK(fs::is_symlink(dir.path() / "link.json"));
  CHECK(fs::is_symlink(dir.path() / "middle"));
  CHECK(read_file(dir.path() / "real" / "target.txt") == "new");
  CHECK(dir.names() == std::vector<std::string>{"link.json", "middle", "real"});
}

TEST_CASE("write_output_file creates the file a dangling symlink names", "[output_file]") {
  const TempDir dir("flightrec-output-dangling");
  fs::create_symlink("later.txt", dir.path() / "link.json");
  REQUIRE(write_output_file(dir.path() / "link.json", "made").ok());
  CHECK(fs::is_symlink(dir.path() / "link.json"));
  CHECK(read_file(dir.path() / "later.txt") == "made");
}

TEST_CASE("write_output_file writes through a link to a character device", "[output_file]") {
  const TempDir dir("flightrec-output-device");
  fs::create_symlink("/dev/null", dir.path() / "null");
  REQUIRE(write_output_file(dir.path() / "null", "discarded").ok());
  CHECK(fs::is_symlink(dir.path() / "null"));
  CHECK(fs::is_character_file("/dev/null"));
  CHECK(dir.names() == std::vector<std::string>{"null"});
}

TEST_CASE("write_output_file writes into a FIFO instead of replacing it", "[output_file]") {
  const TempDir dir("flightrec-output-fifo");
  const fs::path fifo = dir.path() / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // A reader first, so that opening the FIFO for writing does not wait for one.
  const Fd reader(::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  REQUIRE(reader);

  REQUIRE(write_output_file(fifo, "through the pipe").ok());
  CHECK(fs::is_fifo(fifo));
  char buffer[64] = {};
  const ssize_t got = ::read(reader.get(), buffer, sizeof buffer);
  CHECK(std::string(buffer, got > 0 ? static_cast<size_t>(got) : 0) == "through the pipe");
}

TEST_CASE("write_output_file appends to the open file a /proc/self/fd link names",
          "[output_file]") {
  const TempDir dir("flightrec-output-procfd");
  const fs::path file = dir.path() / "stdout.txt";
  std::ofstream(file) << "header\n";
  const Fd open_file(::open(file.c_str(), O_WRONLY | O_CLOEXEC));
  REQUIRE(open_file);
  struct stat before {};
  REQUIRE(::stat(file.c_str(), &before) == 0);

  const auto result =
      write_output_file("/proc/self/fd/" + std::to_string(open_file.get()), "snapshot\n");
  REQUIRE(result.error() == "");
  CHECK(read_file(file) == "header\nsnapshot\n");
  struct stat after {};
  REQUIRE(::stat(file.c_str(), &after) == 0);
  CHECK(after.st_ino == before.st_ino);  // the same file, not a new one renamed over it
}

TEST_CASE("write_output_file refuses a directory and names it", "[output_file]") {
  const TempDir dir("flightrec-output-dir");
  fs::create_directories(dir.path() / "out");
  const auto result = write_output_file(dir.path() / "out", "x");
  CHECK(result.error() == "cannot write " + (dir.path() / "out").string() + ": Is a directory");
  CHECK(fs::is_empty(dir.path() / "out"));
}

TEST_CASE("write_output_file names a link that loops", "[output_file]") {
  const TempDir dir("flightrec-output-loop");
  fs::create_symlink("b", dir.path() / "a");
  fs::create_symlink("a", dir.path() / "b");
  const auto result = write_output_file(dir.path() / "a", "x");
  CHECK_THAT(result.error(), Catch::Matchers::Contains((dir.path() / "a").string()) &&
                                 Catch::Matchers::Contains("symbolic links"));
  CHECK(fs::is_symlink(dir.path() / "a"));
}
