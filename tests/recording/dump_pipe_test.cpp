// `flightrec dump` reads a recording from a pipe as well as from a file, and leaves a failed write
// to its output for the caller to report.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>

#include "flightrec/common/fd.h"
#include "flightrec/recording/convert.h"
#include "temp_dir.h"
#include "test_recordings.h"

using namespace flightrec;
using namespace flightrec::recording;
using namespace flightrec::recording::testing;
namespace fs = std::filesystem;

namespace {

// What dump_file writes for `bytes` read from the path of a pipe's read end (as /dev/stdin is).
int dump_from_pipe(const std::string& bytes, std::string_view format, std::string& out,
                   std::string& err) {
  int ends[2];
  REQUIRE(::pipe2(ends, O_CLOEXEC) == 0);
  const Fd read_end(ends[0]);
  std::thread writer([write_end = Fd(ends[1]), &bytes] {
    std::string_view left = bytes;
    while (!left.empty()) {
      const ssize_t n = ::write(write_end.get(), left.data(), left.size());
      if (n <= 0) return;
      left.remove_prefix(static_cast<size_t>(n));
    }
  });
  std::ostringstream out_stream, err_stream;
  const int status =
      dump_file("/proc/self/fd/" + std::to_string(read_end.get()), format, out_stream, err_stream);
  writer.join();
  out = out_stream.str();
  err = err_stream.str();
  return status;
}

// What dump_file writes for `bytes` in a regular file.
std::string dump_from_file(const std::string& bytes, std::string_view format) {
  const flightrec::testing::TempDir dir;
  const fs::path path = dir.write("recording.fltrec", bytes);
  std::ostringstream out, err;
  REQUIRE(dump_file(path, format, out, err) == 0);
  return out.str();
}

}  // namespace

TEST_CASE("dump_file converts a recording read from a pipe like one read from a file",
          "[convert]") {
  const std::string bytes =
      to_bytes(known_metadata(), known_blocks(), true, known_process_blocks());
  for (const std::string_view format : {"json", "csv"}) {
    std::string out, err;
    CHECK(dump_from_pipe(bytes, format, out, err) == 0);
    CHECK(err.empty());
    CHECK(out == dump_from_file(bytes, format));
  }
}

TEST_CASE("dump_file refuses a torn recording from a pipe and writes nothing", "[convert]") {
  std::string out, err;
  CHECK(dump_from_pipe(to_bytes(known_metadata(), known_blocks(), false), "json", out, err) == 1);
  CHECK(out.empty());
  CHECK_THAT(err, Catch::Matchers::Contains(": torn"));
}

TEST_CASE("dump_file leaves a failed write to its output to the caller", "[convert]") {
  const flightrec::testing::TempDir dir;
  const fs::path path = dir.write("recording.fltrec", to_bytes(known_metadata(), known_blocks()));
  std::ostringstream out, err;
  out.setstate(std::ios::badbit);  // as std::cout is after a write to a full disk
  CHECK(dump_file(path, "csv", out, err) == 1);
  CHECK(err.str().empty());
}
