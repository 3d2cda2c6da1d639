#pragma once
// The kernel's CPU lists (/sys/devices/system/cpu/possible, online: "0-3,6,8-9"), as the in-kernel
// tick (sampler::make_kernel_ticks) reads them.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace flightrec::sampler {

// The ids of `text` in ascending order. False with `error` saying what was wrong when it is not a
// list of ids and ranges, or names an id above `max_id`.
bool parse_cpu_list(std::string_view text, uint32_t max_id, std::vector<uint32_t>& ids,
                    std::string& error);

}  // namespace flightrec::sampler
