// Builds the inode -> pid map by reading every <procfs>/<pid>/fd/<n> link, through directory fds
// (openat/readlinkat) so each process costs one open plus one readlink per descriptor.
#include "flightrec/network/socket_owners.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>

#include "flightrec/common/fd.h"

namespace flightrec::network {
namespace {

struct DirCloser {
  void operator()(DIR* dir) const noexcept { ::closedir(dir); }
};
using Dir = std::unique_ptr<DIR, DirCloser>;

// Opens `path` under `parent_fd` as a directory stream; null when it cannot be opened (a process
// that exited or whose fds we may not read).
Dir open_dir(int parent_fd, const char* path) {
  const int fd = ::openat(parent_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  DIR* dir = ::fdopendir(fd);
  if (dir == nullptr) ::close(fd);
  return Dir(dir);
}

template <typename T>
std::optional<T> parse_number(std::string_view text) {
  T value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// "socket:[12345]" -> 12345; nullopt for any other link target.
std::optional<uint64_t> socket_inode(std::string_view target) {
  constexpr std::string_view kPrefix = "socket:[";
  if (!target.starts_with(kPrefix) || !target.ends_with(']')) return std::nullopt;
  return parse_number<uint64_t>(target.substr(kPrefix.size(), target.size() - kPrefix.size() - 1));
}

}  // namespace

SocketOwners::SocketOwners(sampler::ProcRoot root, std::chrono::milliseconds min_rescan_interval)
    : root_(std::move(root)), min_rescan_interval_(min_rescan_interval) {}

bool SocketOwners::settled(uint64_t inode) const {
  return owners_.contains(inode) || unowned_.contains(inode);
}

int32_t SocketOwners::owner(uint64_t inode) const {
  const auto found = owners_.find(inode);
  return inode == 0 || found == owners_.end() ? 0 : found->second;
}

void SocketOwners::forget(int32_t pid) {
  std::erase_if(owners_, [pid](const auto& entry) { return entry.second == pid; });
}

void SocketOwners::refresh(std::span<const uint64_t> inodes, Clock::time_point now) {
  bool unknown = false;
  for (const uint64_t inode : inodes) unknown = unknown || (inode != 0 && !settled(inode));
  if (unknown && (scans_ == 0 || now - last_scan_ >= min_rescan_interval_)) {
    last_scan_ = now;
    rescan(inodes);
  }
}

void SocketOwners::rescan(std::span<const uint64_t> inodes) {
  ++scans_;
  owners_.clear();
  unowned_.clear();
  last_error_.clear();
  const Fd procfs(::open(root_.procfs.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  const Dir processes = procfs ? open_dir(procfs.get(), ".") : nullptr;
  if (!processes) {
    last_error_ = "cannot list " + root_.procfs.string() + ": " + std::strerror(errno);
    return;
  }
  char target[64];
  while (const dirent* process = ::readdir(processes.get())) {
    const auto pid = parse_number<int32_t>(process->d_name);
    if (!pid || *pid <= 0) continue;
    const std::string fd_path = std::string(process->d_name) + "/fd";
    const Dir fds = open_dir(procfs.get(), fd_path.c_str());
    if (!fds) continue;
    while (const dirent* fd = ::readdir(fds.get())) {
      if (fd->d_name[0] == '.') continue;
      const ssize_t length = ::readlinkat(::dirfd(fds.get()), fd->d_name, target, sizeof(target));
      if (length <= 0) continue;
      const auto inode = socket_inode({target, static_cast<size_t>(length)});
      if (!inode) continue;
      const auto [owner, inserted] = owners_.try_emplace(*inode, *pid);
      if (!inserted && *pid < owner->second) owner->second = *pid;
    }
  }
  for (const uint64_t inode : inodes) {
    if (inode != 0 && !owners_.contains(inode)) unowned_.insert(inode);
  }
}

}  // namespace flightrec::network
