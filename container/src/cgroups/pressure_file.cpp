#include "flightrec/container/cgroups/pressure_file.h"

#include <array>
#include <cstdint>

#include "flightrec/sampler/sources/pressure.h"

namespace flightrec::container {

Result<Pressure> parse_cgroup_pressure(std::string_view text) {
  std::array<int64_t, sampler::kPressureValuesPerFile> totals{};
  sampler::parse_pressure(text, totals);
  if (totals[0] == kAbsent) return Error{"no \"some ... total=<µs>\" line"};
  return Pressure{totals[0], totals[1]};
}

}  // namespace flightrec::container
