#pragma once
// The OOM kills the kernel log reports from the daemon's start on: /dev/kmsg, opened once and
// read from its end (kills before the start are not this daemon's to explain), record by record,
// whenever someone asks. Reading it needs CAP_SYSLOG where kernel.dmesg_restrict is 1 (Debian's
// default) or root; without, error() says so and nothing is reported.
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "flightrec/common/fd.h"
#include "flightrec/trigger/oom/oom_kill_report.h"

namespace flightrec::trigger::oom {

class KernelLog {
 public:
  // `path` is normally /dev/kmsg (tests give a FIFO or a file of records).
  explicit KernelLog(const std::filesystem::path& path);

  // Why the log cannot be read ("" when it can): e.g. "/dev/kmsg: Operation not permitted
  // (reading the kernel log needs CAP_SYSLOG)".
  [[nodiscard]] const std::string& error() const noexcept { return error_; }

  // Any thread: the kills logged since the last call (records the kernel overwrote before they
  // were read are skipped).
  [[nodiscard]] std::vector<OomKillReport> new_kills();

 private:
  void feed_lines(std::vector<OomKillReport>& kills);

  std::mutex mutex_;
  Fd fd_;
  std::string error_;
  OomKillParser parser_;
  std::string unread_;  // the start of a line whose end has not been read yet
};

}  // namespace flightrec::trigger::oom
