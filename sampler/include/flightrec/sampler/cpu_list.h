#pragma once
// The kernel's CPU lists (/sys/devices/system/cpu/possible, online: "0-3,6,8-9"), as the in-kernel
// tick (sampler::make_kernel_ticks) reads them.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/result.h"

namespace flightrec::sampler {

// The ids of `text` in ascending order, or the error saying what was wrong when it is not a list
// of ids and ranges, or names an id above `max_id`.
Result<std::vector<uint32_t>> parse_cpu_list(std::string_view text, uint32_t max_id);

}  // namespace flightrec::sampler
