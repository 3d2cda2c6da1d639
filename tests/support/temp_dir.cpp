#include "temp_dir.h"

#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <sstream>
#include <system_error>

namespace flightrec::testing {

namespace fs = std::filesystem;

TempDir::TempDir(std::string_view prefix) {
  std::string pattern = (fs::temp_directory_path() / prefix).string() + "-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
  }
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;  // a destructor cannot fail the test; the tree is in $TMPDIR anyway
  fs::remove_all(path_, ignored);
}

fs::path TempDir::write(const fs::path& relative, std::string_view content) const {
  fs::path target = path_ / relative;
  fs::create_directories(target.parent_path());
  std::ofstream(target, std::ios::binary | std::ios::trunc)
      .write(content.data(), static_cast<std::streamsize>(content.size()));
  return target;
}

std::vector<std::string> TempDir::names() const {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(path_)) {
    out.push_back(entry.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

fs::path fixture_path(const fs::path& relative) { return fs::path(FLIGHTREC_FIXTURES) / relative; }

}  // namespace flightrec::testing
