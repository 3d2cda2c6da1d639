// Feeds arbitrary bytes to the per-cgroup PSI parser: a parse that succeeds has its "some" total,
// totals are counts or kAbsent, and a failure says why on one line.
// Seed corpus: the PSI files of tests/fixtures/cgroup/.
#include <cstddef>
#include <cstdint>

#include "flightrec/container/cgroups/pressure_file.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::container;
  const auto pressure = parse_cgroup_pressure(flightrec::fuzz::as_text(data, size));
  flightrec::fuzz::check_error(pressure);
  if (pressure) {
    if (pressure->some_us == kAbsent) __builtin_trap();
    flightrec::fuzz::check_values({{pressure->some_us, pressure->full_us}});
  }
  return 0;
}
