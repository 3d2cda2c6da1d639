#pragma once
// An open /proc/<pid> directory, read with openat relative to its fd. Holding the directory fd pins
// the process: once it exits, opens through the fd fail with ESRCH or ENOENT even if the PID has
// been reused, so a process tier can keep these open between ticks and re-read without ever mixing
// two processes' data.
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "flightrec/common/fd.h"

namespace flightrec::process {

// True for the errors a process that exited between listing and reading produces.
[[nodiscard]] inline bool process_vanished(int error) noexcept {
  return error == ENOENT || error == ESRCH;
}

class PidDir {
 public:
  static constexpr size_t kUnbounded = std::numeric_limits<size_t>::max();

  // Opens <pid> under the procfs directory `procfs_fd`. Returns 0 or the errno of the open.
  [[nodiscard]] int open(int procfs_fd, int32_t pid) noexcept;

  // Reads the whole file `name` in this directory into `out`, stopping after `max_bytes` (procfs
  // files report st_size 0, so it reads until EOF). Returns 0 or the errno of the open or read.
  [[nodiscard]] int read(const char* name, std::string& out, size_t max_bytes = kUnbounded) const;

  [[nodiscard]] int32_t pid() const noexcept { return pid_; }
  [[nodiscard]] int fd() const noexcept { return fd_.get(); }

 private:
  Fd fd_;
  int32_t pid_ = 0;
};

}  // namespace flightrec::process
