// The key table lives across inputs, as it does across ticks (see diskstats_fuzz.cpp).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "flightrec/sampler/sources/netdev.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::sampler;
  static KeySlots keys("netdev", {"^[a-z]", "^veth"}, 4);
  std::vector<int64_t> out(keys.table().capacity() * kNetdevFields);
  parse_netdev(flightrec::fuzz::as_text(data, size), keys, out);
  flightrec::fuzz::check_values(out);
  return 0;
}
