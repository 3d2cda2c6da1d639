#include "flightrec/process/pid_dir.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>

namespace flightrec::process {

int PidDir::open(int procfs_fd, int32_t pid) noexcept {
  char name[16] = {};
  std::to_chars(name, name + sizeof name - 1, pid);
  Fd dir(::openat(procfs_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir) return errno;
  fd_ = std::move(dir);
  pid_ = pid;
  return 0;
}

int PidDir::read(const char* name, std::string& out, size_t max_bytes) const {
  out.clear();
  const Fd file(::openat(fd_.get(), name, O_RDONLY | O_CLOEXEC));
  if (!file) return errno;
  constexpr size_t kInitialBytes = 1024;
  size_t used = 0;
  while (used < max_bytes) {
    if (used == out.size()) out.resize(std::min(max_bytes, std::max(kInitialBytes, used * 2)));
    const ssize_t n =
        ::pread(file.get(), out.data() + used, out.size() - used, static_cast<off_t>(used));
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      out.clear();
      return error;
    }
    if (n == 0) break;
    used += static_cast<size_t>(n);
  }
  out.resize(used);
  return 0;
}

}  // namespace flightrec::process
