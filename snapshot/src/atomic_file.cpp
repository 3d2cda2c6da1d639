#include "flightrec/snapshot/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "flightrec/common/fd.h"
#include "write_all.h"

namespace flightrec::snapshot {
namespace {

std::string describe(const std::string& what, const std::filesystem::path& path, int error) {
  return "cannot " + what + " " + path.string() + ": " + std::strerror(error);
}

// Writes and syncs the temporary file; returns an error message or "".
std::string fill_temporary(int fd, const std::filesystem::path& temp, std::string_view bytes) {
  if (const int error = write_all(fd, bytes); error != 0) return describe("write", temp, error);
  if (::fsync(fd) != 0) return describe("fsync", temp, errno);
  return {};
}

}  // namespace

WriteResult write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
  std::filesystem::path directory = path.parent_path();
  if (directory.empty()) directory = ".";

  std::string temp_name = path.string() + ".tmp.XXXXXX";  // mkostemp fills in the X's
  const int fd = ::mkostemp(temp_name.data(), O_CLOEXEC);
  if (fd < 0) return {describe("create a temporary file for", path, errno)};
  const std::filesystem::path temp(temp_name);

  std::string error = fill_temporary(fd, temp, bytes);
  // close can report a deferred write error (NFS), so its result counts too.
  if (::close(fd) != 0 && error.empty()) error = describe("close", temp, errno);
  if (!error.empty()) {
    ::unlink(temp.c_str());
    return {std::move(error)};
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int rename_error = errno;
    ::unlink(temp.c_str());
    return {describe("rename " + temp.string() + " to", path, rename_error)};
  }
  const Fd dir(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir) return {describe("open directory", directory, errno)};
  if (::fsync(dir.get()) != 0) return {describe("fsync directory", directory, errno)};
  return {};
}

}  // namespace flightrec::snapshot
