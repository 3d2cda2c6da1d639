#pragma once
// Keeps one file open and re-reads it from offset 0 with pread into a buffer reused across reads.
// procfs files report st_size 0, so it reads until EOF; the buffer grows only when a read fills it
// (at open and on the rare tick a file outgrows it), never in steady state.
//
// How the end is found is the caller's choice (FileEnd). Every file ends at a read that returns
// nothing, which costs a second syscall per read. A file the kernel renders whole at the first read
// (a cgroup file: its one show() call writes all of it into a buffer that grows to fit; a procfs
// file made by single_open(), such as /proc/stat, meminfo, loadavg and pressure/*) also ends at
// the first read that does not fill the buffer, and reading it takes one pread. Files rendered
// record by record (/proc/vmstat, diskstats, net/dev) can return a short read before their end.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/fd.h"

namespace flightrec::sampler {

// Where a read of the file ends (above).
enum class FileEnd {
  at_empty_read,  // any file
  at_short_read,  // a file the kernel renders whole at the first read, or a regular file
};

class FileReader {
 public:
  // Throws std::system_error naming the path when the file cannot be opened.
  explicit FileReader(std::filesystem::path path, size_t initial_capacity = 4096,
                      FileEnd end = FileEnd::at_empty_read);

  // Re-reads the whole file. On success returns its bytes (valid until the next read);
  // on failure returns false and leaves errno_value() set.
  [[nodiscard]] bool read(std::string_view& out) noexcept;

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
  [[nodiscard]] int errno_value() const noexcept { return errno_; }
  [[nodiscard]] size_t capacity() const noexcept { return buffer_.size(); }
  // The preads the last read() made: 1 for a file that fits the buffer and ends at a short read.
  [[nodiscard]] unsigned last_read_calls() const noexcept { return last_read_calls_; }

 private:
  std::filesystem::path path_;
  Fd fd_;
  std::vector<char> buffer_;
  FileEnd end_;
  int errno_ = 0;
  unsigned last_read_calls_ = 0;
};

// Reads a whole file once (for set-up and one-shot commands). Throws std::system_error naming it.
std::string read_file(const std::filesystem::path& path);

}  // namespace flightrec::sampler
