#pragma once
// A cgroup's cpu.pressure, memory.pressure or io.pressure (PSI, cgroup v2 only; on a hybrid host
// the unified hierarchy has them): the "some" and "full" stall totals in µs. The avg10/60/300
// figures are not kept, as in the system's pressure source: they derive from the totals.
#include <string_view>

#include "flightrec/common/result.h"
#include "flightrec/container/cgroups/cgroup_stats.h"

namespace flightrec::container {

// The sampler's PSI parser, with an error when there is no "some" total (the bytes are not a PSI
// file); a missing "full" line (cpu.pressure before Linux 5.13) stays kAbsent.
Result<Pressure> parse_cgroup_pressure(std::string_view text);

}  // namespace flightrec::container
