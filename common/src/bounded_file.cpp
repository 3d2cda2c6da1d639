#include "flightrec/common/bounded_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>

#include "flightrec/common/fd.h"

namespace flightrec {
namespace {

std::string_view kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "a socket";
}

Error failed(const std::filesystem::path& path, std::string_view why) {
  std::string message = path.string();
  message += ": ";
  message += why;
  return Error{std::move(message)};
}

}  // namespace

Result<std::string> read_bounded_file(const std::filesystem::path& path, size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (regular files ignore the flag).
  const Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (!fd) return failed(path, std::strerror(errno));
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) return failed(path, std::strerror(errno));
  if (!S_ISREG(info.st_mode)) {
    return failed(path, "not a regular file (" + std::string(kind_of(info.st_mode)) + ")");
  }
  std::string text;
  char chunk[16384];
  for (;;) {
    const ssize_t got = ::read(fd.get(), chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return failed(path, std::strerror(errno));
    if (got == 0) return text;
    if (text.size() + static_cast<size_t>(got) > max_bytes) {
      return failed(path, "larger than " + std::to_string(max_bytes) + " bytes");
    }
    text.append(chunk, static_cast<size_t>(got));
  }
}

}  // namespace flightrec
