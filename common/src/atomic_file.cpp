#include "flightrec/common/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace flightrec {
namespace {

// What AtomicFile appends to the name it writes, before mkostemp's six random characters.
constexpr std::string_view kTemporaryInfix = ".tmp.";
constexpr std::string_view kTemporaryTemplate = "XXXXXX";

bool is_mkostemp_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

}  // namespace

std::optional<std::string_view> atomic_temporary_target(std::string_view name) {
  const size_t suffix = kTemporaryInfix.size() + kTemporaryTemplate.size();
  if (name.size() <= suffix) return std::nullopt;
  const std::string_view target = name.substr(0, name.size() - suffix);
  const std::string_view infix = name.substr(target.size(), kTemporaryInfix.size());
  const std::string_view random = name.substr(name.size() - kTemporaryTemplate.size());
  if (infix != kTemporaryInfix) return std::nullopt;
  for (const char c : random) {
    if (!is_mkostemp_character(c)) return std::nullopt;
  }
  return target;
}

std::string file_error(std::string_view what, const std::filesystem::path& path, int error) {
  return "cannot " + std::string(what) + " " + path.string() + ": " + std::strerror(error);
}

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

AtomicFile::AtomicFile(std::filesystem::path path) : path_(std::move(path)) {
  // mkostemp fills in the X's, mode 0600.
  std::string temp_name =
      path_.string() + std::string(kTemporaryInfix) + std::string(kTemporaryTemplate);
  fd_ = Fd(::mkostemp(temp_name.data(), O_CLOEXEC));
  if (!fd_) {
    fail("create a temporary file for", path_, errno);
    return;
  }
  temp_path_ = temp_name;
}

AtomicFile::~AtomicFile() {
  fd_.reset();
  if (!temp_path_.empty()) ::unlink(temp_path_.c_str());
}

bool AtomicFile::fail(std::string_view what, const std::filesystem::path& about, int error) {
  if (error_.empty()) error_ = file_error(what, about, error);
  return false;
}

bool AtomicFile::write(std::string_view bytes) {
  if (!error_.empty()) return false;
  if (const int error = write_all(fd_.get(), bytes); error != 0) {
    return fail("write", temp_path_, error);
  }
  return true;
}

Status AtomicFile::commit() {
  if (error_.empty()) publish();
  fd_.reset();
  if (!error_.empty()) return Error{error_};
  return {};
}

void AtomicFile::publish() {
  if (::fsync(fd_.get()) != 0) {
    fail("fsync", temp_path_, errno);
    return;
  }
  // close can report a deferred write error (NFS), so its result counts too.
  if (::close(fd_.release()) != 0) {
    fail("close", temp_path_, errno);
    return;
  }
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    fail("rename " + temp_path_.string() + " to", path_, errno);
    return;
  }
  temp_path_.clear();  // it is the real file now
  std::filesystem::path directory = path_.parent_path();
  if (directory.empty()) directory = ".";
  const Fd dir(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir) {
    fail("open directory", directory, errno);
  } else if (::fsync(dir.get()) != 0) {
    fail("fsync directory", directory, errno);
  }
}

Status write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
  AtomicFile file(path);
  file.write(bytes);
  return file.commit();
}

}  // namespace flightrec
