#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "flightrec/sampler/file_reader.h"

using flightrec::sampler::FileReader;

namespace {
std::filesystem::path temp_file(const std::string& name, const std::string& content) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << content;
  return path;
}
}  // namespace

TEST_CASE("FileReader re-reads a file that changed since the last read", "[file_reader]") {
  const auto path = temp_file("flightrec_reader_test", "first\n");
  FileReader reader(path);
  std::string_view bytes;
  REQUIRE(reader.read(bytes));
  CHECK(bytes == "first\n");
  std::ofstream(path) << "second, longer\n";
  REQUIRE(reader.read(bytes));
  CHECK(bytes == "second, longer\n");
  std::filesystem::remove(path);
}

TEST_CASE("FileReader reads past its initial capacity until EOF", "[file_reader]") {
  const std::string big(10000, 'x');
  const auto path = temp_file("flightrec_reader_big", big);
  FileReader reader(path, 16);
  std::string_view bytes;
  REQUIRE(reader.read(bytes));
  CHECK(bytes.size() == big.size());
  CHECK(reader.capacity() >= big.size());
  std::filesystem::remove(path);
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
