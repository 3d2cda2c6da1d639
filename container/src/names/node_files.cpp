#include "node_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "flightrec/common/clock.h"

namespace flightrec::container::names::detail {
namespace {

// Coarser than any timestamp granularity a Linux filesystem has (ext3's is one second).
constexpr int64_t kSettleNs = 2'000'000'000;

int64_t ns_of(const timespec& time) {
  return static_cast<int64_t>(time.tv_sec) * 1'000'000'000 + time.tv_nsec;
}

Error failed(const std::filesystem::path& path, int error) {
  return Error{path.string() + ": " + std::strerror(error)};
}

struct DirCloser {
  void operator()(DIR* dir) const { ::closedir(dir); }
};

}  // namespace

Result<FileStamp> stamp_of(const std::filesystem::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return FileStamp{};
    return failed(path, errno);
  }
  FileStamp stamp{.exists = true,
                  .device = info.st_dev,
                  .inode = info.st_ino,
                  .mtime_ns = ns_of(info.st_mtim),
                  .ctime_ns = ns_of(info.st_ctim),
                  .size = info.st_size};
  // mtime alone: a later write would give a later mtime once this one is a tick old (a file
  // replaced whole has a new inode whatever its mtime).
  stamp.settled = clock_ns(CLOCK_REALTIME) - stamp.mtime_ns >= kSettleNs;
  return stamp;
}

bool unchanged(const FileStamp& before, const FileStamp& now) {
  return before.settled && before.exists == now.exists && before.device == now.device &&
         before.inode == now.inode && before.mtime_ns == now.mtime_ns &&
         before.ctime_ns == now.ctime_ns && before.size == now.size;
}

Result<std::vector<std::string>> list_directory(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::vector<std::string>();
    return failed(path, errno);
  }
  const std::unique_ptr<DIR, DirCloser> dir(::fdopendir(fd));
  if (!dir) {
    const int error = errno;
    ::close(fd);
    return failed(path, error);
  }
  std::vector<std::string> names;
  for (;;) {
    errno = 0;
    const dirent* entry = ::readdir(dir.get());
    if (entry == nullptr) break;
    const std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  if (errno != 0) return failed(path, errno);
  return names;
}

std::optional<std::string> read_link(const std::filesystem::path& path) {
  char target[4096];
  const ssize_t length = ::readlink(path.c_str(), target, sizeof target);
  if (length <= 0 || static_cast<size_t>(length) >= sizeof target) return std::nullopt;
  return std::string(target, static_cast<size_t>(length));
}

}  // namespace flightrec::container::names::detail
