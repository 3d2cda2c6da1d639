#include "flightrec/process/pid_lister.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <system_error>

#include "numbers.h"

namespace flightrec::process {
namespace {
// Enough for ~1,300 /proc entries per getdents64 call.
constexpr size_t kBufferBytes = 32 * 1024;
}  // namespace

PidLister::PidLister(const std::filesystem::path& procfs)
    : dir_(::open(procfs.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)), buffer_(kBufferBytes) {
  if (!dir_) {
    throw std::system_error(errno, std::generic_category(), "cannot open " + procfs.string());
  }
}

int PidLister::list(std::vector<int32_t>& out) {
  out.clear();
  if (::lseek(dir_.get(), 0, SEEK_SET) < 0) return errno;
  for (;;) {
    const ssize_t n = ::getdents64(dir_.get(), buffer_.data(), buffer_.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (n == 0) break;
    size_t pos = 0;
    while (pos < static_cast<size_t>(n)) {
      // Records are 8-byte aligned within the buffer; copy the header rather than cast it.
      dirent64 entry;
      std::memcpy(&entry, buffer_.data() + pos, offsetof(dirent64, d_name));
      const char* name = buffer_.data() + pos + offsetof(dirent64, d_name);
      const std::optional<int32_t> pid = detail::parse_decimal<int32_t>(std::string_view(name));
      if (pid && *pid > 0) out.push_back(*pid);
      pos += entry.d_reclen;
    }
  }
  // procfs lists PIDs in order already; other filesystems (fixture trees) do not.
  if (!std::is_sorted(out.begin(), out.end())) std::sort(out.begin(), out.end());
  return 0;
}

}  // namespace flightrec::process
