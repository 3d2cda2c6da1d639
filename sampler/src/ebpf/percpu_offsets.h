#pragma once
// Where the kernel's per-CPU variables sit inside its per-CPU section, from the vmlinux BTF: what
// sampler/bpf/cpu_ticks.bpf.c needs to reach them on a kernel that cannot resolve per-CPU ksyms
// (one built without CONFIG_KALLSYMS_ALL).
#include <cstdint>

#include "flightrec/common/result.h"

namespace flightrec::sampler::detail {

struct PerCpuOffsets {
  uint64_t runqueues = 0;       // struct rq
  uint64_t kernel_cpustat = 0;  // struct kernel_cpustat
  uint64_t tick_cpu_sched = 0;  // struct tick_sched
};

// The three offsets, or the error naming what is missing when the kernel's BTF does not give them.
Result<PerCpuOffsets> find_percpu_offsets();

}  // namespace flightrec::sampler::detail
