#pragma once
// /proc/<pid>/stat: one line of space-separated fields (proc(5)). The command name sits in
// parentheses and may itself hold spaces and ')', so the fields after it are found from the LAST
// ')'.
#include <cstdint>
#include <string>
#include <string_view>

#include "flightrec/common/result.h"

namespace flightrec::process {

struct PidStat {
  int32_t pid = 0;
  std::string comm;  // raw bytes as the kernel stores them (at most 15, any byte but NUL)
  char state = '?';  // R, S, D, Z, T, t, X, I, ...
  int32_t ppid = 0;
  int32_t pgrp = 0;
  int32_t session = 0;
  int32_t tty_nr = 0;
  uint32_t flags = 0;  // PF_* bits
  uint64_t minflt = 0;
  uint64_t majflt = 0;
  uint64_t utime = 0;  // USER_HZ ticks
  uint64_t stime = 0;  // USER_HZ ticks
  int64_t priority = 0;
  int64_t nice = 0;
  int64_t num_threads = 0;
  uint64_t starttime = 0;  // USER_HZ ticks after boot
  uint64_t vsize = 0;      // bytes
  int64_t rss = 0;         // pages

  // PF_KTHREAD: kernel threads have no user memory and an empty cmdline.
  [[nodiscard]] bool is_kernel_thread() const noexcept { return (flags & 0x00200000U) != 0; }
};

// Parses the contents of /proc/<pid>/stat (fields 1 to 24; later fields are ignored).
Result<PidStat> parse_pid_stat(std::string_view bytes);

}  // namespace flightrec::process
