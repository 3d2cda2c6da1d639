#pragma once
// Tells the process sampler when listing /proc can be skipped: no new process can exist unless
// the kernel allocated a PID, and /proc/loadavg's last field is the last PID allocated in the
// reader's PID namespace. Listing costs ~1 us per process (the kernel walks every PID), about a
// sixth of a tick on a quiet host, where most ticks see no new process.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

#include "flightrec/common/fd.h"

namespace flightrec::process {

// The last field of /proc/loadavg ("0.08 0.03 0.01 2/187 4711": 4711), nullopt when malformed.
std::optional<int64_t> parse_loadavg_last_pid(std::string_view loadavg);

class PidAllocationWatch {
 public:
  // Usable only when <procfs> is the live procfs of this process's PID namespace (its "self" link
  // names our own pid): loadavg answers for the reader's namespace, so a procfs of another
  // namespace (a container's /host/proc without hostPID) or a fixture tree could hide new PIDs.
  explicit PidAllocationWatch(const std::filesystem::path& procfs);

  // False only when it is certain that no PID was allocated since the previous call; true on the
  // first call, when unusable, and when the read fails.
  bool maybe_new_pids();

  [[nodiscard]] bool usable() const noexcept { return loadavg_.valid(); }

 private:
  Fd loadavg_;
  std::optional<int64_t> last_pid_;
};

}  // namespace flightrec::process
