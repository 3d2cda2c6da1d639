#include "flightrec/recording/detail/atomic_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace flightrec::recording::detail {

AtomicStreamFile::AtomicStreamFile(std::filesystem::path path) : path_(std::move(path)) {
  const std::string pattern = path_.string() + ".tmp.XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  fd_ = Fd(mkostemp(name.data(), O_CLOEXEC));
  if (!fd_) {
    fail("cannot create a temporary file next to it");
    return;
  }
  temp_path_ = name.data();
  fchmod(fd_.get(), 0600);
}

AtomicStreamFile::~AtomicStreamFile() {
  if (!temp_path_.empty()) unlink(temp_path_.c_str());
}

bool AtomicStreamFile::fail(std::string_view what) {
  if (error_.empty()) error_ = path_.string() + ": " + std::string(what) + ": " + strerror(errno);
  return false;
}

bool AtomicStreamFile::write(std::string_view bytes) {
  if (!error_.empty()) return false;
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_.get(), bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail("cannot write");
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

snapshot::WriteResult AtomicStreamFile::commit() {
  if (error_.empty()) {
    if (fsync(fd_.get()) != 0) {
      fail("cannot fsync");
    } else if (fd_.reset(); rename(temp_path_.c_str(), path_.c_str()) != 0) {
      fail("cannot rename the temporary file over it");
    } else {
      temp_path_.clear();  // it is the real file now
      const auto dir = path_.has_parent_path() ? path_.parent_path() : std::filesystem::path(".");
      const Fd dir_fd(open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
      if (!dir_fd || fsync(dir_fd.get()) != 0) fail("cannot fsync its directory");
    }
  }
  return {.error = error_};
}

}  // namespace flightrec::recording::detail
