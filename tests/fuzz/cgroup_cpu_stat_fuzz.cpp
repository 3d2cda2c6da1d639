// Feeds arbitrary bytes to the container tier's cpu.stat and cpuacct.stat parsers: the values
// read are counts or kAbsent, and a failure says why on one line.
// Seed corpus: the v1 and v2 cpu.stat and cpuacct.stat of tests/fixtures/cgroup/.
#include <cstddef>
#include <cstdint>

#include "flightrec/container/cgroups/cpu_files.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::container;
  const std::string_view text = flightrec::fuzz::as_text(data, size);
  const auto stat = parse_cpu_stat(text);
  flightrec::fuzz::check_error(stat);
  if (stat) {
    flightrec::fuzz::check_values(
        {{stat->usage_us, stat->user_us, stat->system_us, stat->periods, stat->throttled_periods,
          stat->throttled_us, stat->bursts, stat->burst_us}});
  }
  const auto ticks = parse_cpuacct_stat(text);
  flightrec::fuzz::check_error(ticks);
  if (ticks) flightrec::fuzz::check_values({{ticks->user, ticks->system}});
  return 0;
}
