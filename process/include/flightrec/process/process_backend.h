#pragma once
// Picks the process tier's backend at start-up (processes.backend): the BPF task iterator when it
// loads and the process tier reads this machine's own /proc, else the /proc reader.
#include <memory>

#include "flightrec/config/config.h"
#include "flightrec/process/process_source.h"
#include "flightrec/sampler/proc_root.h"

namespace flightrec::process {

// Logs which backend runs and, when eBPF was wanted and is not used, why. Throws when
// processes.backend is `ebpf` and the iterator cannot run, or when /proc cannot be read.
std::unique_ptr<ProcessSource> open_process_source(const config::Config& config,
                                                   const sampler::ProcRoot& root);

}  // namespace flightrec::process
