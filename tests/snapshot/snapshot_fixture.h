#pragma once
// A snapshot of tests/fixtures/procs-debian12 with a small system schema covering plain, scaled,
// keyed, unbound and absent series.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "flightrec/sampler/slot_table.h"
#include "flightrec/snapshot/snapshot.h"

namespace flightrec::test {

inline constexpr int64_t kSnapshotTimeNs = 1796060000'250'000'000LL;  // 2026-11-30T17:33:20.250Z

class FixtureSnapshot {
 public:
  FixtureSnapshot() : disks_(4) {
    static_cast<void>(disks_.bind("vda"));
    using sampler::SeriesKind;
    schema_.push_back({"cpu_seconds_total",
                       "CPU time",
                       "seconds",
                       SeriesKind::counter,
                       0.01,
                       {{"cpu", "0"}, {"mode", "user"}},
                       nullptr,
                       0,
                       "",
                       "/proc/stat"});
    schema_.push_back({"memory_available_bytes",
                       "Available memory",
                       "bytes",
                       SeriesKind::gauge,
                       1.0,
                       {},
                       nullptr,
                       0,
                       "",
                       "/proc/meminfo"});
    schema_.push_back({"disk_read_bytes_total",
                       "Bytes read",
                       "bytes",
                       SeriesKind::counter,
                       1.0,
                       {},
                       &disks_,
                       0,
                       "device",
                       "/proc/diskstats"});
    schema_.push_back({"disk_read_bytes_total",
                       "Bytes read",
                       "bytes",
                       SeriesKind::counter,
                       1.0,
                       {},
                       &disks_,
                       1,
                       "device",
                       "/proc/diskstats"});  // slot 1 is unbound
    schema_.push_back({"pressure_cpu_waiting_seconds_total",
                       "PSI",
                       "seconds",
                       SeriesKind::counter,
                       1e-6,
                       {},
                       nullptr,
                       0,
                       "",
                       "/proc/pressure/cpu"});
    values_ = {9036, 1234567890123, 4096, 77, sampler::kAbsent};
  }

  // `redact`: processes.redact_cmdline's pattern ("": none).
  [[nodiscard]] snapshot::Snapshot take(const std::string& redact = "") const {
    sampler::ProcRoot root;
    root.procfs = std::filesystem::path(FLIGHTREC_FIXTURES) / "procs-debian12";
    const process::ProcessTable table(root, process::KernelUnits{100, 4096});
    process::UserNames users([](uint32_t uid) -> std::optional<std::string> {
      if (uid == 0) return "root";
      if (uid == 65534) return "nobody";
      return std::nullopt;
    });
    const process::CmdlineRedactor redactor(redact);
    return snapshot::take_snapshot(table, users, redactor, schema_, values_, kSnapshotTimeNs);
  }

  [[nodiscard]] const sampler::Schema& schema() const { return schema_; }

 private:
  sampler::SlotTable disks_;
  sampler::Schema schema_;
  std::vector<int64_t> values_;
};

}  // namespace flightrec::test
