#include "flightrec/common/atomic_file.h"

#include <sys/mount.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "temp_dir.h"

using flightrec::AtomicFile;
using flightrec::write_file_atomically;
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
  CHECK_THAT(result.error(), Catch::Matchers::Contains(target.string()));
  CHECK_THAT(result.error(), Catch::Matchers::Contains("No such file or directory"));
}

TEST_CASE("write_file_atomically removes its temporary file when the rename fails",
          "[atomic_file]") {
  const TempDir dir("flightrec-atomic-rename");
  // A non-empty directory where the file should go: rename cannot replace it.
  fs::create_directories(dir.path() / "taken" / "inside");
  const auto result = write_file_atomically(dir.path() / "taken", "x");
  REQUIRE_FALSE(result.ok());
  CHECK_THAT(result.error(), Catch::Matchers::Contains((dir.path() / "taken").string()));
  CHECK(dir.names() == std::vector<std::string>{"taken"});
  CHECK(fs::is_directory(dir.path() / "taken" / "inside"));
}

TEST_CASE("AtomicFile streams pieces into the file only on commit", "[atomic_file]") {
  const TempDir dir("flightrec-atomic-stream");
  AtomicFile file(dir.path() / "rec");
  REQUIRE(file.write("first "));
  REQUIRE(file.write("second"));
  CHECK_FALSE(fs::exists(dir.path() / "rec"));
  REQUIRE(file.commit().ok());
  CHECK(read_file(dir.path() / "rec") == "first second");
  CHECK(dir.names() == std::vector<std::string>{"rec"});
}

TEST_CASE("AtomicFile without a commit leaves nothing behind", "[atomic_file]") {
  const TempDir dir("flightrec-atomic-abandon");
  {
    AtomicFile file(dir.path() / "rec");
    REQUIRE(file.write("partial"));
  }
  CHECK(dir.names().empty());
}

TEST_CASE("atomic_temporary_target recognises AtomicFile's temporary names and no others",
          "[atomic_file]") {
  using flightrec::atomic_temporary_target;
  const TempDir dir("flightrec-atomic-names");
  {
    AtomicFile file(dir.path() / "20251130T050000.000Z-cpu.flightrec");
    REQUIRE(file.write("partial"));
    const auto names = dir.names();
    REQUIRE(names.size() == 1);
    CHECK(atomic_temporary_target(names[0]) == "20251130T050000.000Z-cpu.flightrec");
  }
  CHECK(atomic_temporary_target("x.flightrec.tmp.Ab12Cd") == "x.flightrec");
  // Not mkostemp's six characters of [A-Za-z0-9] after ".tmp.": somebody else's file.
  for (const char* other :
       {"keep.flightrec.tmp.user", "x.flightrec.tmp.1", "x.flightrec.tmp.Ab12Cd7",
        "x.flightrec.tmp.Ab-2Cd", "x.flightrec.tmpxAb12Cd", ".tmp.Ab12Cd", "x.flightrec"}) {
    INFO(other);
    CHECK_FALSE(atomic_temporary_target(other));
  }
}

TEST_CASE("AtomicFile fails every write when it cannot create its temporary file",
          "[atomic_file]") {
  const fs::path target = "/nonexistent/flightrec-dir/rec";
  AtomicFile file(target);
  CHECK_FALSE(file.write("x"));
  const auto result = file.commit();
  REQUIRE_FALSE(result.ok());
  CHECK_THAT(result.error(), Catch::Matchers::StartsWith("cannot create a temporary file for " +
                                                         target.string() + ": "));
}

namespace {

// A tmpfs of one page mounted on `dir` (needs root), so writes run out of space.
class FullTmpfs {
 public:
  explicit FullTmpfs(const fs::path& dir) : dir_(dir) {
    fs::create_directories(dir_);
    mounted_ = ::mount("tmpfs", dir_.c_str(), "tmpfs", 0, "size=4k") == 0;
  }
  ~FullTmpfs() {
    if (mounted_) ::umount(dir_.c_str());
  }
  FullTmpfs(const FullTmpfs&) = delete;
  FullTmpfs& operator=(const FullTmpfs&) = delete;
  [[nodiscard]] bool mounted() const { return mounted_; }

 private:
  fs::path dir_;
  bool mounted_ = false;
};

}  // namespace

TEST_CASE("write_file_atomically on a full file system names the file and removes it",
          "[atomic_file]") {
  const TempDir dir("flightrec-atomic-full");
  const FullTmpfs tmpfs(dir.path() / "small");
  if (!tmpfs.mounted()) {
    WARN("cannot mount a tmpfs (not root?); skipping");
    return;
  }
  const fs::path target = dir.path() / "small" / "big.json";
  const auto result = write_file_atomically(target, std::string(1 << 20, 'x'));
  REQUIRE_FALSE(result.ok());
  CHECK_THAT(result.error(),
             Catch::Matchers::StartsWith("cannot write " + target.string() + ".tmp."));
  CHECK_THAT(result.error(), Catch::Matchers::EndsWith(std::strerror(ENOSPC)));
  CHECK(fs::is_empty(dir.path() / "small"));
}
