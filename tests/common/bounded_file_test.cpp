#include "flightrec/common/bounded_file.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <string>

#include "temp_dir.h"

namespace flightrec {
namespace {

TEST_CASE("a bounded read returns the whole file, up to the bound itself", "[bounded_file]") {
  const testing::TempDir dir;
  const auto path = dir.write("state.json", std::string(40000, 'x'));
  const auto whole = read_bounded_file(path, 40000);
  REQUIRE(whole);
  CHECK(whole->size() == 40000);
  const auto empty = read_bounded_file(dir.write("empty", ""), 0);
  REQUIRE(empty);
  CHECK(empty->empty());
}

TEST_CASE("a bounded read refuses a file over the bound, naming it", "[bounded_file]") {
  const testing::TempDir dir;
  const auto path = dir.write("big.json", std::string(40001, 'x'));
  const auto read = read_bounded_file(path, 40000);
  REQUIRE_FALSE(read);
  CHECK(read.error() == path.string() + ": larger than 40000 bytes");
}

TEST_CASE("a bounded read refuses what is not a regular file, without waiting", "[bounded_file]") {
  const testing::TempDir dir;
  const auto fifo = dir.file("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto from_fifo = read_bounded_file(fifo, 100);
  REQUIRE_FALSE(from_fifo);
  CHECK(from_fifo.error() == fifo.string() + ": not a regular file (a FIFO)");

  const auto from_dir = read_bounded_file(dir.path(), 100);
  REQUIRE_FALSE(from_dir);
  CHECK(from_dir.error() == dir.path().string() + ": not a regular file (a directory)");

  const auto missing = read_bounded_file(dir.file("missing"), 100);
  REQUIRE_FALSE(missing);
  CHECK(missing.error() == dir.file("missing").string() + ": No such file or directory");
}

}  // namespace
}  // namespace flightrec
