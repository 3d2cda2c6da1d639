#include "flightrec/trigger/oom/kernel_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace flightrec::trigger::oom {
namespace {

// One kmsg record is at most about 8 KiB (the kernel's CONSOLE_EXT_LOG_MAX).
constexpr size_t kRecordBytes = 8192;

}  // namespace

KernelLog::KernelLog(const std::filesystem::path& path)
    : fd_(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)) {
  if (!fd_) {
    const int error = errno;
    error_ = path.string() + ": " + std::strerror(error);
    if (error == EPERM || error == EACCES) {
      error_ += " (reading the kernel log needs CAP_SYSLOG, or kernel.dmesg_restrict=0)";
    }
    return;
  }
  // From now on only: /dev/kmsg (and a file tests append to) read from its end.
  static_cast<void>(::lseek(fd_.get(), 0, SEEK_END));
}

void KernelLog::feed_lines(std::vector<OomKillReport>& kills) {
  // /dev/kmsg gives one record per read; a file gives many, maybe cut mid-line. A record's
  // continuation lines start with a space and say nothing the parser needs.
  size_t start = 0;
  for (size_t end = unread_.find('\n'); end != std::string::npos;
       start = end + 1, end = unread_.find('\n', start)) {
    const std::string_view line(unread_.data() + start, end - start);
    if (line.starts_with(' ')) continue;
    if (auto kill = parser_.feed(line)) kills.push_back(std::move(*kill));
  }
  unread_.erase(0, start);
}

std::vector<OomKillReport> KernelLog::new_kills() {
  std::vector<OomKillReport> kills;
  const std::lock_guard lock(mutex_);
  if (!fd_) return kills;
  char record[kRecordBytes];
  for (;;) {
    const ssize_t n = ::read(fd_.get(), record, sizeof record);
    if (n > 0) {
      unread_.append(record, static_cast<size_t>(n));
      feed_lines(kills);
      continue;
    }
    if (n < 0 && (errno == EINTR || errno == EPIPE)) continue;  // EPIPE: records overwritten
    break;  // EAGAIN: nothing more now; 0: a file's end
  }
  return kills;
}

}  // namespace flightrec::trigger::oom
