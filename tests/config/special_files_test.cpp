// A config path that is not a regular file is refused at once, naming the path and what it is.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "flightrec/config/loader.h"
#include "temp_dir.h"

using namespace flightrec::config;
namespace fs = std::filesystem;

namespace {

// A FIFO nobody writes to, in a directory of its own.
class ScratchFifo {
 public:
  ScratchFifo() : path_(dir_.file("config.yaml")) { REQUIRE(::mkfifo(path_.c_str(), 0600) == 0); }
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  flightrec::testing::TempDir dir_{"flightrec-config-fifo"};
  fs::path path_;
};

}  // namespace

TEST_CASE("a FIFO as the config file is refused without waiting for a writer", "[lookup]") {
  const ScratchFifo fifo;
  const LoadResult result = load_from_file(fifo.path());
  REQUIRE(result.errors.size() == 1);
  CHECK(result.errors[0] ==
        fifo.path().string() + ": cannot read config file: not a regular file (it is a FIFO)");
}

TEST_CASE("a FIFO given with --config.file is refused too", "[lookup]") {
  const ScratchFifo fifo;
  const LoadResult result = load_with_lookup(fifo.path());
  CHECK_FALSE(result.ok());
  CHECK(result.origin == fifo.path().string());
}

TEST_CASE("a character device is not read as an empty config", "[lookup]") {
  // /dev/null reads as empty, which would otherwise be a valid file giving the defaults.
  const LoadResult result = load_from_file("/dev/null");
  REQUIRE(result.errors.size() == 1);
  CHECK(result.errors[0] ==
        "/dev/null: cannot read config file: not a regular file (it is a character device)");
}

TEST_CASE("a directory is named as what it is", "[lookup]") {
  const LoadResult result = load_from_file(fs::temp_directory_path());
  REQUIRE(result.errors.size() == 1);
  CHECK(result.errors[0] ==
        fs::temp_directory_path().string() +
            ": cannot read config file: not a regular file (it is a directory)");
}
