#pragma once
// sampler.backend: gives the sampler its in-kernel tick when the configuration allows it and the
// program loads and passes its check, and says in the log which backend ticks and why.
#include "flightrec/config/config.h"
#include "flightrec/sampler/proc_root.h"
#include "flightrec/sampler/sampler.h"

namespace flightrec::sampler {

// `auto` falls back to procfs with a log line naming why; `ebpf` throws std::runtime_error with
// the reason instead (a start-up error); `procfs` leaves the sampler on its own timer.
void choose_sampler_backend(sampler::Sampler& sampler, const config::Config& cfg,
                            const sampler::ProcRoot& root);

}  // namespace flightrec::sampler
