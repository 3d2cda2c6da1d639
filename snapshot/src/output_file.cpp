#include "flightrec/snapshot/output_file.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <variant>

#include "flightrec/common/atomic_file.h"

namespace flightrec::snapshot {
namespace {

namespace fs = std::filesystem;

// The kernel's own limit on the links one path may go through (MAXSYMLINKS).
constexpr int kMaxLinkHops = 40;

struct ReplaceAt {
  fs::path path;
};
struct WriteThrough {};
struct Refuse {
  std::string error;
};
using Target = std::variant<ReplaceAt, WriteThrough, Refuse>;

// procfs links (/proc/self/fd/1, where /dev/stdout leads) point at open files, and their text
// ("pipe:[123]", "/tmp/x (deleted)") need not be a path at all.
bool is_on_procfs(const fs::path& link) {
  const fs::path directory = link.has_parent_path() ? link.parent_path() : fs::path(".");
  struct statfs info {};
  return ::statfs(directory.c_str(), &info) == 0 && info.f_type == PROC_SUPER_MAGIC;
}

// A regular file or nothing yet: the entry at the end of the chain of links is the one to replace.
Target follow_links(const fs::path& path) {
  fs::path at = path;
  for (int hops = 0; hops <= kMaxLinkHops; ++hops) {
    struct stat info {};
    if (::lstat(at.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return ReplaceAt{at};
    if (is_on_procfs(at)) return WriteThrough{};
    std::error_code error;
    const fs::path target = fs::read_symlink(at, error);
    if (error) return Refuse{"cannot read the link " + at.string() + ": " + error.message()};
    at = target.is_absolute() ? target : at.parent_path() / target;
  }
  return Refuse{file_error("follow the links of", path, ELOOP)};
}

Target target_of(const fs::path& path) {
  struct stat info {};
  // stat follows every link; when it fails (nothing there yet, a dangling link) the replace below
  // creates the file, or reports why it cannot.
  if (::stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) return Refuse{file_error("write", path, EISDIR)};
    if (!S_ISREG(info.st_mode)) return WriteThrough{};
  }
  return follow_links(path);
}

Status write_through(const fs::path& path, std::string_view bytes) {
  // No O_CREAT: it exists. O_APPEND: a file behind /dev/stdout keeps what the shell wrote before.
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return Error{file_error("open", path, errno)};
  const int write_error = write_all(fd, bytes);
  // close can report a deferred write error (NFS), so its result counts too.
  const int close_error = ::close(fd) == 0 ? 0 : errno;
  if (write_error != 0) return Error{file_error("write", path, write_error)};
  if (close_error != 0) return Error{file_error("close", path, close_error)};
  return {};
}

}  // namespace

Status write_output_file(const fs::path& path, std::string_view bytes) {
  const Target target = target_of(path);
  if (const auto* refuse = std::get_if<Refuse>(&target)) return Error{refuse->error};
  if (const auto* replace = std::get_if<ReplaceAt>(&target)) {
    return write_file_atomically(replace->path, bytes);
  }
  return write_through(path, bytes);
}

}  // namespace flightrec::snapshot
