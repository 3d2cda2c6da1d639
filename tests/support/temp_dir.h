#pragma once
// The tests' one temporary-directory fixture, and the file helpers that go with it.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace flightrec::testing {

// A fresh, private directory under $TMPDIR (mkdtemp, so parallel test runs never share one),
// removed with everything in it when the fixture goes out of scope.
class TempDir {
 public:
  explicit TempDir(std::string_view prefix = "flightrec-test");
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  // path() / relative, for a file the code under test creates.
  [[nodiscard]] std::filesystem::path file(const std::filesystem::path& relative) const {
    return path_ / relative;
  }
  // Writes `content` to path() / relative, creating the parent directories; an existing file is
  // truncated and rewritten in place (same inode). Returns the file's full path.
  std::filesystem::path write(const std::filesystem::path& relative,
                              std::string_view content) const;
  // The names of the directory's entries, sorted.
  [[nodiscard]] std::vector<std::string> names() const;

 private:
  std::filesystem::path path_;
};

// A whole file's bytes ("" when it cannot be read).
std::string read_file(const std::filesystem::path& path);

// tests/fixtures / relative.
std::filesystem::path fixture_path(const std::filesystem::path& relative);

}  // namespace flightrec::testing
