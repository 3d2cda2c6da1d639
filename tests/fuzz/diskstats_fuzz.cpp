// The key table lives across inputs, as it does across ticks, so the fuzzer also drives slot
// binding, the filter, a full table and a full ignored-name table.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "flightrec/sampler/sources/diskstats.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::sampler;
  static KeySlots keys("diskstats", {"", "^(ram|loop)\\d+$"}, 4);
  std::vector<int64_t> out(keys.table().capacity() * kDiskstatsFields);
  parse_diskstats(flightrec::fuzz::as_text(data, size), keys, out);
  flightrec::fuzz::check_values(out);
  return 0;
}
