#include <array>
#include <cstddef>
#include <cstdint>

#include "flightrec/sampler/sources/cgroup_cpu.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::sampler;
  std::array<int64_t, kCgroupCpuFields.size()> out{};
  parse_cgroup_cpu(flightrec::fuzz::as_text(data, size), out);
  flightrec::fuzz::check_values(out);
  return 0;
}
