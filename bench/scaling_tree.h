#pragma once
// Synthetic proc roots of big machines for bench_scaling: a /proc/stat with N CPU lines, a
// /proc/diskstats with D disks (each with one partition, as real hosts have), a /proc/net/dev with
// I interfaces and a root cgroup cpu.stat, all regenerated in place by advance() so the counters
// move between reads; meminfo, vmstat, loadavg and pressure are copies of the captured fixture.
// A process table of P fake /proc/<pid> directories can be added for the process tier.
// Everything lives in a temporary directory removed with the tree.
#include <cstdint>
#include <filesystem>
#include <string>

#include "flightrec/sampler/proc_root.h"

namespace flightrec::bench {

struct MachineShape {
  std::string name;
  uint32_t cpus = 2;
  uint32_t disks = 1;
  uint32_t interfaces = 2;
};

class ScalingTree {
 public:
  // `fixture`: a captured proc root (tests/fixtures/proc-debian12-vm) for the files not generated.
  ScalingTree(const MachineShape& shape, const std::filesystem::path& fixture);
  ~ScalingTree();
  ScalingTree(const ScalingTree&) = delete;
  ScalingTree& operator=(const ScalingTree&) = delete;

  [[nodiscard]] sampler::ProcRoot root() const;

  // Rewrites the generated files (same inodes, as procfs) with the counters of tick `tick`.
  void advance(uint64_t tick) const;

  // Adds `count` processes as /proc/<pid>/{stat,status,io,cmdline,cgroup}, a `self` link to this
  // process (so the sampler's PID-allocation watch works) and a loadavg naming the last PID.
  void add_processes(uint32_t count) const;

 private:
  // Copies the fixture's files and writes the generated ones for tick 0.
  void populate(const std::filesystem::path& fixture);
  [[nodiscard]] std::string stat_text(uint64_t tick) const;
  [[nodiscard]] std::string diskstats_text(uint64_t tick) const;
  [[nodiscard]] std::string netdev_text(uint64_t tick) const;

  MachineShape shape_;
  std::filesystem::path dir_;
  std::string intr_line_;  // the fixture's, kept whole: its length is the kernel's IRQ count
};

}  // namespace flightrec::bench
