#include "write_all.h"

#include <unistd.h>

#include <cerrno>
#include <cstddef>

namespace flightrec::snapshot {

int write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return 0;
}

}  // namespace flightrec::snapshot
