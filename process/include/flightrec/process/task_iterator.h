#pragma once
// The process tier's eBPF backend: a BPF task iterator (process/bpf/tasks.bpf.c) whose one read
// gives every process's counters (docs/PROCESS_TIER.md, "Backends"), read through its
// TaskCounterReader by TaskCounterSampler.
#include <memory>
#include <string>

#include "flightrec/common/result.h"
#include "flightrec/process/task_counters.h"

namespace flightrec::process {

// Loads the program and creates its iterator link. The error says why when it cannot run here:
// built without eBPF, not permitted (needs CAP_BPF and CAP_PERFMON, or root), no kernel BTF, or not
// in the initial PID namespace (the program numbers processes as that namespace does).
Result<std::unique_ptr<TaskCounterReader>> make_task_iterator();

}  // namespace flightrec::process
