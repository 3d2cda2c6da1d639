#pragma once
// The procs-tier fixture tree (procs-debian12 plus io and cgroup files), and scratch copies of it
// that a test can change between two samples.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace flightrec::test {

inline std::filesystem::path procs_tier() {
  return std::filesystem::path(FLIGHTREC_FIXTURES) / "procs-tier";
}

class ScratchTier {
 public:
  explicit ScratchTier(const std::string& name)
      : root_(std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(root_);
    std::filesystem::copy(procs_tier(), root_, std::filesystem::copy_options::recursive);
  }
  ScratchTier(const ScratchTier&) = delete;
  ScratchTier& operator=(const ScratchTier&) = delete;
  ~ScratchTier() { std::filesystem::remove_all(root_); }

  // Rewrites a file in place (same inode), as procfs would regenerate it: a held fd sees it.
  void overwrite(const std::filesystem::path& relative, const std::string& content) const {
    std::filesystem::create_directories((root_ / relative).parent_path());
    std::ofstream(root_ / relative, std::ios::binary | std::ios::trunc) << content;
  }
  void remove(const std::filesystem::path& relative) const {
    std::filesystem::remove_all(root_ / relative);
  }

  [[nodiscard]] const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
};

}  // namespace flightrec::test
