#pragma once
// What the daemon's own eBPF programs cost: the kernel's run time and run count of every BPF
// program this process holds (the traffic backend's, the exit watcher's). The kernel counts them
// only while BPF statistics are enabled (sysctl kernel.bpf_stats_enabled, or an fd from the
// BPF_ENABLE_STATS command held open), and then for every program on the host, at the price of
// two clock reads per program run. See docs/METRICS.md ("Self cost").
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "flightrec/common/fd.h"

namespace flightrec::ebpf {

struct BpfProgramRun {
  uint32_t id = 0;
  std::string name;  // as loaded, up to 15 characters
  uint64_t run_time_ns = 0;
  uint64_t run_count = 0;
};

// The program behind `fd`; nullopt when it is not one or cannot be queried (or built without eBPF).
std::optional<BpfProgramRun> read_bpf_program(int fd);
using BpfProgramReader = std::function<std::optional<BpfProgramRun>(int fd)>;

// The BPF programs this process holds, found once among the open fds listed in `fd_dir`
// (<procfs>/self/fd: links named "anon_inode:bpf-prog"), then read by fd: scanning every fd at each
// read would cost more than all the rest of a scrape (the process tier keeps hundreds open).
// Programs loaded later are not seen; ours are loaded before the daemon's collectors are made
// and stay until they are destroyed.
class OwnBpfPrograms {
 public:
  OwnBpfPrograms(const std::filesystem::path& fd_dir, BpfProgramReader reader);

  [[nodiscard]] bool empty() const noexcept { return held_.empty(); }
  // Every program's statistics now, once per program id, ordered by name; a program whose fd no
  // longer holds it is left out.
  [[nodiscard]] std::vector<BpfProgramRun> read() const;

 private:
  struct Held {
    int fd = -1;
    uint32_t id = 0;
  };
  BpfProgramReader reader_;
  std::vector<Held> held_;
};

// Keeps the kernel's BPF run statistics on for as long as it lives (BPF_ENABLE_STATS with
// BPF_STATS_RUN_TIME; needs CAP_SYS_ADMIN). on() is false with why_not() when refused.
class BpfStatsSwitch {
 public:
  BpfStatsSwitch();
  [[nodiscard]] bool on() const noexcept { return fd_.valid(); }
  [[nodiscard]] const std::string& why_not() const noexcept { return why_not_; }

 private:
  Fd fd_;
  std::string why_not_;
};

}  // namespace flightrec::ebpf
