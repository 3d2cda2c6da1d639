#pragma once
// One detailed picture of the machine at one moment: host identity, one sample of the fast-tier
// system series, and every process. Values are converted to base units (seconds, bytes) here, so
// renderers only format.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "flightrec/process/cmdline_redactor.h"
#include "flightrec/process/process_table.h"
#include "flightrec/process/user_names.h"
#include "flightrec/sampler/proc_root.h"
#include "flightrec/sampler/series.h"

namespace flightrec::snapshot {

struct SystemValue {
  std::string name;  // the series name from the schema (the /metrics family is flightrec_<name>)
  std::vector<std::pair<std::string, std::string>> labels;  // fixed labels, then the keyed one
  std::string unit;
  sampler::SeriesKind kind = sampler::SeriesKind::gauge;
  int64_t raw = 0;     // the stored value
  double scale = 1.0;  // base-unit value = raw * scale
  std::string source;

  [[nodiscard]] double value() const noexcept { return static_cast<double>(raw) * scale; }
};

struct ProcessEntry {
  int32_t pid = 0;
  int32_t ppid = 0;
  std::optional<uint32_t> uid;   // real uid, from status
  std::optional<uint32_t> euid;  // effective uid, from status
  std::string user;              // name of the effective uid (as ps shows); empty when unknown
  char state = '?';
  std::string comm;
  std::string cmdline;  // arguments joined with spaces; empty for kernel threads and zombies
  bool cmdline_truncated = false;
  bool kernel_thread = false;
  double utime_seconds = 0;
  double stime_seconds = 0;
  int64_t start_time_unix_ns = 0;
  uint64_t rss_bytes = 0;
  uint64_t vsz_bytes = 0;
  int64_t threads = 0;
  uint64_t minflt = 0;
  uint64_t majflt = 0;
  int64_t priority = 0;
  int64_t nice = 0;

  [[nodiscard]] double cpu_seconds() const noexcept { return utime_seconds + stime_seconds; }
};

struct Snapshot {
  int64_t time_unix_ns = 0;
  std::string hostname;
  std::string kernel_release;
  int64_t boot_time_unix_ns = 0;
  std::vector<SystemValue> system;
  std::vector<ProcessEntry> processes;  // in PID order
  uint32_t processes_listed = 0;
  uint32_t processes_vanished = 0;  // exited while being read; not an error
  // What could not be read, each naming its file. Not a Result: a snapshot shows everything it
  // could read, and these beside it.
  std::vector<std::string> errors;
};

// Builds a snapshot from one sample of the system series (`values` holds one value per `schema`
// entry; throws std::invalid_argument when the sizes differ) and a fresh read of every process.
// `time_unix_ns` is the snapshot's time (CLOCK_REALTIME). Command lines pass through `redactor`
// (processes.redact_cmdline), as the daemon's process tier records them.
Snapshot take_snapshot(const process::ProcessTable& table, process::UserNames& users,
                       const process::CmdlineRedactor& redactor, const sampler::Schema& schema,
                       std::span<const int64_t> values, int64_t time_unix_ns);

// The same over `root`, with the running kernel's units and the system's user database. Throws
// what ProcessTable's constructor throws when <procfs> is unusable.
Snapshot take_snapshot(const sampler::ProcRoot& root, const process::CmdlineRedactor& redactor,
                       const sampler::Schema& schema, std::span<const int64_t> values,
                       int64_t time_unix_ns);

}  // namespace flightrec::snapshot
