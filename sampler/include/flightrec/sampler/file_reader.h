#pragma once
// Keeps one file open and re-reads it from offset 0 with pread into a buffer reused across reads.
// procfs files report st_size 0, so it reads until EOF; the buffer grows only when a read fills it
// (at open and on the rare tick a file outgrows it), never in steady state.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/fd.h"

namespace flightrec::sampler {

class FileReader {
 public:
  // Throws std::system_error naming the path when the file cannot be opened.
  explicit FileReader(std::filesystem::path path, size_t initial_capacity = 4096);

  // Re-reads the whole file. On success returns its bytes (valid until the next read);
  // on failure returns false and leaves errno_value() set.
  [[nodiscard]] bool read(std::string_view& out) noexcept;

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
  [[nodiscard]] int errno_value() const noexcept { return errno_; }
  [[nodiscard]] size_t capacity() const noexcept { return buffer_.size(); }

 private:
  std::filesystem::path path_;
  Fd fd_;
  std::vector<char> buffer_;
  int errno_ = 0;
};

// Reads a whole file once (for set-up and one-shot commands). Throws std::system_error naming it.
std::string read_file(const std::filesystem::path& path);

}  // namespace flightrec::sampler
