#pragma once
// The start-up check of the in-kernel tick: its per-CPU times against /proc/stat's, read right
// after. The program reaches the counters by computed addresses, and /proc/stat falls back to
// other counters on kernels without NO_HZ; a disagreement means it must not be trusted here.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "flightrec/common/result.h"
#include "flightrec/sampler/kernel_ticks.h"

namespace flightrec::sampler::detail {

// Success when every CPU line of `stat_text` (a /proc/stat) is of a CPU online in `cpus` (one
// tick, by CPU id) and agrees with it in every column, else the error says what disagreed.
// /proc/stat counts in `ns_per_user_hz` steps and was read up to `elapsed_ns` after the tick, so a
// column may be up to two steps lower and up to elapsed_ns plus two steps higher.
Status check_against_proc_stat(std::string_view stat_text,
                               std::span<const sampler::KernelCpuTimes> cpus, int64_t elapsed_ns,
                               int64_t ns_per_user_hz);

}  // namespace flightrec::sampler::detail
