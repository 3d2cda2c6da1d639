#include "process_identity.h"

#include <cstring>

#include "flightrec/process/pid_cgroup.h"

namespace flightrec::process {

IdentityRead read_process_identity(const ProcessTable& table, const PidDir& dir,
                                   const CmdlineRedactor& redactor, ProcessRow& row) {
  IdentityRead read;
  auto info = table.read(dir);
  if (!info) {
    read.error = std::move(info).error();
    return read;  // failed
  }
  if (!info->has_value()) {
    read.outcome = ReadOutcome::vanished;
    return read;
  }
  read.outcome = ReadOutcome::ok;
  read.info = **std::move(info);
  row.start_time_unix_ns = read.info.start_time_unix_ns;
  row.uid = read.info.status.uid_real.value_or(0);
  row.cmdline = redactor.redact(read.info.cmdline.text);

  row.cgroup.clear();
  row.container_id.clear();
  std::string bytes;
  const std::string path =
      (table.root().procfs / std::to_string(dir.pid()) / "cgroup").string() + ": ";
  if (const int error = dir.read("cgroup", bytes); error != 0) {
    // Gone now: the next tick reports the exit. Absent (no cgroup support): nothing to report.
    if (!process_vanished(error)) read.error = path + std::strerror(error);
    return read;
  }
  Result<PidCgroup> cgroup = parse_pid_cgroup(bytes);
  if (!cgroup.ok()) {
    read.error = path + cgroup.error();
    return read;
  }
  row.cgroup = std::move(cgroup->path);
  row.container_id = std::move(cgroup->container_id);
  return read;
}

}  // namespace flightrec::process
