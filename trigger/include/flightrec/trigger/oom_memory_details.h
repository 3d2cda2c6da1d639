#pragma once
// The memory part of an OOM incident's details, from the process tier's blocks: the biggest
// resident sets at the kill and the victim's resident set before it (model/oom_memory.h), as
// "oom.*" details. Runs on the incident writer thread, never on the recorder's.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "flightrec/recording/metadata.h"
#include "flightrec/store/process_block.h"

namespace flightrec::trigger {

// The process tier's blocks as stored now, oldest first; an empty function: no process tier.
using ProcessBlocksSource =
    std::function<std::vector<std::shared_ptr<const store::ProcessBlock>>()>;

inline constexpr size_t kOomTopConsumers = 5;

// Details for a kill at `killed_at_ns` of `victim_pid` (0: victim unknown, no victim keys),
// scanning the frames of `blocks` from `window_from_ns` on.
[[nodiscard]] recording::Labels oom_memory_details(
    const std::vector<std::shared_ptr<const store::ProcessBlock>>& blocks, int64_t window_from_ns,
    int64_t killed_at_ns, int32_t victim_pid);

}  // namespace flightrec::trigger
