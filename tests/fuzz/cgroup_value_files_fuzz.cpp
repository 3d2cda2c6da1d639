// Feeds arbitrary bytes to the container tier's one-value parsers (counts, limits, cpu.max,
// cpu.cfs_quota_us): a value is a count or kUnlimited, and a failure says why on one line.
// Seed corpus: the single-value files of tests/fixtures/cgroup/.
#include <cstddef>
#include <cstdint>

#include "flightrec/container/cgroups/cpu_files.h"
#include "flightrec/container/cgroups/value_files.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::container;
  const std::string_view text = flightrec::fuzz::as_text(data, size);
  const auto count = parse_cgroup_count(text);
  flightrec::fuzz::check_error(count);
  if (count && *count < 0) __builtin_trap();
  const auto limit = parse_cgroup_limit(text);
  flightrec::fuzz::check_error(limit);
  if (limit && *limit < 0) __builtin_trap();
  const auto quota = parse_cfs_quota(text);
  flightrec::fuzz::check_error(quota);
  if (quota && *quota < 0) __builtin_trap();
  const auto bandwidth = parse_cpu_max(text);
  flightrec::fuzz::check_error(bandwidth);
  if (bandwidth && (bandwidth->quota_us < 0 || bandwidth->period_us < 0)) __builtin_trap();
  return 0;
}
