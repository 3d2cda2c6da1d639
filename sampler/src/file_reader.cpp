#include "flightrec/sampler/file_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace flightrec::sampler {

FileReader::FileReader(std::filesystem::path path, size_t initial_capacity, FileEnd end)
    : path_(std::move(path)), buffer_(initial_capacity == 0 ? 1 : initial_capacity), end_(end) {
  fd_ = Fd(::open(path_.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd_)
    throw std::system_error(errno, std::generic_category(), "cannot open " + path_.string());
  // Size the buffer for this file once, so steady-state reads never grow it.
  std::string_view first;
  if (!read(first)) {
    throw std::system_error(errno_, std::generic_category(), "cannot read " + path_.string());
  }
}

bool FileReader::read(std::string_view& out) noexcept {
  size_t used = 0;
  last_read_calls_ = 0;
  for (;;) {
    if (used == buffer_.size()) {
      // Only at open or when the file outgrew the buffer: doubling keeps this rare.
      try {
        buffer_.resize(buffer_.size() * 2);
      } catch (...) {
        errno_ = ENOMEM;
        return false;
      }
    }
    const size_t room = buffer_.size() - used;
    const ssize_t n = ::pread(fd_.get(), buffer_.data() + used, room, static_cast<off_t>(used));
    ++last_read_calls_;
    if (n < 0) {
      if (errno == EINTR) continue;
      errno_ = errno;
      return false;
    }
    if (n == 0) break;
    used += static_cast<size_t>(n);
    if (end_ == FileEnd::at_short_read && static_cast<size_t>(n) < room) break;
  }
  out = std::string_view(buffer_.data(), used);
  return true;
}

std::string read_file(const std::filesystem::path& path) {
  FileReader reader(path);
  std::string_view bytes;
  if (!reader.read(bytes)) {
    throw std::system_error(reader.errno_value(), std::generic_category(),
                            "cannot read " + path.string());
  }
  return std::string(bytes);
}

}  // namespace flightrec::sampler
