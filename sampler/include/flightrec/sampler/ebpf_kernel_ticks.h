#pragma once
// The sampler's in-kernel tick (sampler.backend: ebpf): sampler/bpf/cpu_ticks.bpf.c on a kernel
// timer records the CPU counters at the sampler's rate into a ring buffer that the sampler drains
// (sampler/kernel_ticks.h).
#include <chrono>
#include <memory>
#include <string>

#include "flightrec/common/result.h"
#include "flightrec/sampler/kernel_ticks.h"

namespace flightrec::sampler {

// Loads the program, checks that it finds every CPU's counters (and that they agree with
// /proc/stat under `proc_root`), and starts its timer at `period`. The error says why when it
// cannot run here: built without eBPF, not permitted (needs CAP_BPF and CAP_PERFMON, or
// root), no kernel BTF, or a kernel whose layout the check refuses. The kernel's buffer holds 2 s
// of ticks: firings past that while undrained are dropped, and lost() counts them together with
// any later record that failed the program's own per-CPU check (it then carries no values).
Result<std::unique_ptr<sampler::KernelTicks>> make_kernel_ticks(std::chrono::nanoseconds period,
                                                                const std::string& proc_root);

}  // namespace flightrec::sampler
