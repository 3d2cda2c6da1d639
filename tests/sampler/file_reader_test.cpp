#include "flightrec/sampler/file_reader.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "temp_dir.h"

using flightrec::sampler::FileReader;
using flightrec::testing::TempDir;

TEST_CASE("FileReader re-reads a file that changed since the last read", "[file_reader]") {
  const TempDir dir;
  const auto path = dir.write("changing", "first\n");
  FileReader reader(path);
  std::string_view bytes;
  REQUIRE(reader.read(bytes));
  CHECK(bytes == "first\n");
  std::ofstream(path) << "second, longer\n";
  REQUIRE(reader.read(bytes));
  CHECK(bytes == "second, longer\n");
}

TEST_CASE("FileReader reads past its initial capacity until EOF", "[file_reader]") {
  const std::string big(10000, 'x');
  const TempDir dir;
  const auto path = dir.write("big", big);
  FileReader reader(path, 16);
  std::string_view bytes;
  REQUIRE(reader.read(bytes));
  CHECK(bytes.size() == big.size());
  CHECK(reader.capacity() >= big.size());
}

TEST_CASE("FileReader names the missing file in its error", "[file_reader]") {
  try {
    FileReader reader("/nonexistent/flightrec/file");
    FAIL("expected an exception");
  } catch (const std::system_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("/nonexistent/flightrec/file"));
  }
}

TEST_CASE("FileReader reads procfs files whose st_size is 0", "[file_reader]") {
  FileReader reader("/proc/self/status");
  std::string_view bytes;
  REQUIRE(reader.read(bytes));
  CHECK(bytes.find("Name:") == 0);
}
