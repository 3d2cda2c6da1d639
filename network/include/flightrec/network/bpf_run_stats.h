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

namespace flightrec::network {

struct BpfProgramRun {
  uint32_t id = 0;
  std::string name;  // as loaded, up to 15 characters
  uint64_t run_time_ns = 0;
  uint64_t run_count = 0;
};

// The program behind `fd`; nullopt when it is not one or cannot be queried (or built without eBPF).
std::optional<BpfProgramRun> read_bpf_program(int fd);
using BpfProgramReader = std::function<std::optional<BpfProgramRun>(int fd)>;

// Every BPF program among the open fds listed in `fd_dir` (<procfs>/self/fd: links named
// "anon_inode:bpf-prog"), once per program id, ordered by name, each read through `reader`.
std::vector<BpfProgramRun> own_bpf_programs(const std::filesystem::path& fd_dir,
                                            const BpfProgramReader& reader);

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

}  // namespace flightrec::network
