#pragma once
// What both process backends read from /proc only when a process is first seen and after it
// exec'd: stat (for the starttime that identifies it), status (uid), cmdline and cgroup.
#include <string>

#include "flightrec/process/cmdline_redactor.h"
#include "flightrec/process/pid_dir.h"
#include "flightrec/process/process_frame.h"
#include "flightrec/process/process_table.h"

namespace flightrec::process {

// Not a Result: a cgroup that cannot be read leaves an identity that is still used, and reported.
struct IdentityRead {
  ReadOutcome outcome = ReadOutcome::failed;
  ProcessInfo info;  // on ok: stat, status and cmdline as read
  // A failure to report (naming the file): the reason for `failed`, or a cgroup that could not be
  // read or parsed while the rest was (outcome ok, cgroup left empty).
  std::string error;
};

// Reads the process at `dir` and sets `row`'s start time, uid, redacted cmdline, cgroup and
// container id. The caller applies the counters (from info.stat or its own reader).
IdentityRead read_process_identity(const ProcessTable& table, const PidDir& dir,
                                   const CmdlineRedactor& redactor, ProcessRow& row);

}  // namespace flightrec::process
