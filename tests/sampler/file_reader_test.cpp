#include "flightrec/sampler/file_reader.h"

#include <algorithm>
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

TEST_CASE("FileReader ends a file rendered whole at its first short read: one pread",
          "[file_reader]") {
  const TempDir dir;
  const auto path = dir.write("small", "nr_periods 7\n");
  std::string_view bytes;

  FileReader until_empty(path, 64);
  REQUIRE(until_empty.read(bytes));
  CHECK(bytes == "nr_periods 7\n");
  CHECK(until_empty.last_read_calls() == 2);  // the data, then the empty read at its end

  FileReader until_short(path, 64, flightrec::sampler::FileEnd::at_short_read);
  REQUIRE(until_short.read(bytes));
  CHECK(bytes == "nr_periods 7\n");
  CHECK(until_short.last_read_calls() == 1);

  SECTION("a file that outgrows the buffer is still read whole") {
    const std::string big(1000, 'y');
    std::ofstream(path) << big;
    REQUIRE(until_short.read(bytes));
    CHECK(bytes == big);
    REQUIRE(until_short.read(bytes));  // the grown buffer fits it now
    CHECK(bytes == big);
    CHECK(until_short.last_read_calls() == 1);
  }
  SECTION("procfs files made by single_open(), as the sampler opens them") {
    FileReader stat("/proc/stat", 64, flightrec::sampler::FileEnd::at_short_read);
    FileReader whole("/proc/stat");
    std::string_view short_end;
    std::string_view empty_end;
    REQUIRE(stat.read(short_end));
    REQUIRE(whole.read(empty_end));
    // The same lines (the counters move between the reads).
    CHECK(std::count(short_end.begin(), short_end.end(), '\n') ==
          std::count(empty_end.begin(), empty_end.end(), '\n'));
    CHECK(stat.last_read_calls() == 1);
  }
}
