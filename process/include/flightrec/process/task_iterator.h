#pragma once
// The process tier's eBPF backend: a BPF task iterator (network/bpf/tasks.bpf.c) whose one read
// gives every process's counters (docs/PROCESS_TIER.md, "Backends"). It lives here, beside the
// other BPF programs and their build, and serves the sampler through its TaskCounterReader.
#include <memory>
#include <string>

#include "flightrec/process/task_counters.h"

namespace flightrec::process {

// Loads the program and creates its iterator link. Null with `why_not` saying why when it cannot
// run here: built without eBPF, not permitted (needs CAP_BPF and CAP_PERFMON, or root), no
// kernel BTF, or not in the initial PID namespace (the program numbers processes as that
// namespace does).
std::unique_ptr<TaskCounterReader> make_task_iterator(std::string& why_not);

}  // namespace flightrec::process
