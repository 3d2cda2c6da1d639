#include <stdexcept>
#include <system_error>

#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/slot_table.h"
#include "flightrec/snapshot/snapshot.h"

namespace flightrec::snapshot {
namespace {

using process::ProcessInfo;
using process::ProcessTable;
using process::UserNames;

constexpr int64_t kNanosPerSecond = 1'000'000'000;

// One line of text from a procfs file, without its newline; "" (and an error) if unreadable.
std::string read_line(const std::filesystem::path& path, std::vector<std::string>& errors) {
  try {
    std::string text = sampler::read_file(path);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
  } catch (const std::system_error& e) {
    errors.emplace_back(e.what());
    return {};
  }
}

std::vector<SystemValue> system_values(const sampler::Schema& schema,
                                       std::span<const int64_t> values) {
  if (values.size() != schema.size()) {
    throw std::invalid_argument("take_snapshot: " + std::to_string(values.size()) +
                                " values for a schema of " + std::to_string(schema.size()) +
                                " series");
  }
  std::vector<SystemValue> out;
  out.reserve(schema.size());
  for (size_t i = 0; i < schema.size(); ++i) {
    const sampler::SeriesDesc& desc = schema[i];
    if (values[i] == sampler::kAbsent) continue;
    SystemValue value{desc.name, desc.labels, desc.unit,  desc.kind,
                      values[i], desc.scale,  desc.source};
    if (desc.keys != nullptr) {
      if (desc.key_slot >= desc.keys->bound()) continue;  // no key bound yet: nothing to name it by
      value.labels.emplace_back(desc.key_label, std::string(desc.keys->name(desc.key_slot)));
    }
    out.push_back(std::move(value));
  }
  return out;
}

ProcessEntry process_entry(ProcessInfo& info, const ProcessTable& table, UserNames& users,
                           const process::CmdlineRedactor& redactor) {
  const auto& units = table.units();
  const auto seconds = [&](uint64_t ticks) {
    return static_cast<double>(ticks) / static_cast<double>(units.user_hz);
  };
  ProcessEntry entry;
  entry.pid = info.stat.pid;
  entry.ppid = info.stat.ppid;
  entry.uid = info.status.uid_real;
  entry.euid = info.status.uid_effective;
  if (entry.euid) entry.user = users.name(*entry.euid);
  entry.state = info.stat.state;
  entry.comm = std::move(info.stat.comm);
  entry.cmdline = redactor.redact(info.cmdline.text);
  entry.cmdline_truncated = info.cmdline.truncated;
  entry.kernel_thread = info.stat.is_kernel_thread();
  entry.utime_seconds = seconds(info.stat.utime);
  entry.stime_seconds = seconds(info.stat.stime);
  entry.start_time_unix_ns = info.start_time_unix_ns;
  // status's VmRSS is exact; stat's rss is summed from per-CPU caches on newer kernels.
  entry.rss_bytes = info.status.vm_rss_bytes.value_or(
      info.stat.rss > 0 ? static_cast<uint64_t>(info.stat.rss * units.page_size) : 0);
  entry.vsz_bytes = info.stat.vsize;
  entry.threads = info.stat.num_threads;
  entry.minflt = info.stat.minflt;
  entry.majflt = info.stat.majflt;
  entry.priority = info.stat.priority;
  entry.nice = info.stat.nice;
  return entry;
}

}  // namespace

Snapshot take_snapshot(const ProcessTable& table, UserNames& users,
                       const process::CmdlineRedactor& redactor, const sampler::Schema& schema,
                       std::span<const int64_t> values, int64_t time_unix_ns) {
  Snapshot snapshot;
  snapshot.time_unix_ns = time_unix_ns;
  snapshot.system = system_values(schema, values);
  const sampler::ProcRoot& root = table.root();
  snapshot.hostname = read_line(root.proc("sys/kernel/hostname"), snapshot.errors);
  snapshot.kernel_release = read_line(root.proc("sys/kernel/osrelease"), snapshot.errors);
  snapshot.boot_time_unix_ns = table.boot_time_unix_s() * kNanosPerSecond;

  process::ProcessScan scan = table.scan();
  snapshot.processes_listed = scan.listed;
  snapshot.processes_vanished = scan.vanished;
  snapshot.processes.reserve(scan.processes.size());
  for (ProcessInfo& info : scan.processes) {
    snapshot.processes.push_back(process_entry(info, table, users, redactor));
  }
  snapshot.errors.insert(snapshot.errors.end(), std::make_move_iterator(scan.errors.begin()),
                         std::make_move_iterator(scan.errors.end()));
  return snapshot;
}

Snapshot take_snapshot(const sampler::ProcRoot& root, const process::CmdlineRedactor& redactor,
                       const sampler::Schema& schema, std::span<const int64_t> values,
                       int64_t time_unix_ns) {
  const ProcessTable table(root);
  UserNames users;
  return take_snapshot(table, users, redactor, schema, values, time_unix_ns);
}

}  // namespace flightrec::snapshot
