#pragma once
// Helpers for the process tests: fixture files, and scratch procfs trees built from a fixture so a
// test can add the broken or vanished PIDs it needs.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace flightrec::test {

inline std::filesystem::path debian12() {
  return std::filesystem::path(FLIGHTREC_FIXTURES) / "procs-debian12";
}

inline std::string fixture_file(const std::string& pid, const std::string& name) {
  std::ifstream in(debian12() / pid / name, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// A copy of procs-debian12 in a fresh temporary directory, removed again on destruction.
class ScratchProcfs {
 public:
  explicit ScratchProcfs(const std::string& name)
      : root_(std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(root_);
    std::filesystem::copy(debian12(), root_, std::filesystem::copy_options::recursive);
  }
  ScratchProcfs(const ScratchProcfs&) = delete;
  ScratchProcfs& operator=(const ScratchProcfs&) = delete;
  ~ScratchProcfs() { std::filesystem::remove_all(root_); }

  void write(const std::filesystem::path& relative, const std::string& content) const {
    std::filesystem::create_directories((root_ / relative).parent_path());
    std::ofstream(root_ / relative, std::ios::binary) << content;
  }

  [[nodiscard]] const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
};

}  // namespace flightrec::test
