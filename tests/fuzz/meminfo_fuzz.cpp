#include <array>
#include <cstddef>
#include <cstdint>

#include "flightrec/sampler/sources/meminfo.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::sampler;
  std::array<int64_t, kMeminfoFields.size()> out{};
  parse_meminfo(flightrec::fuzz::as_text(data, size), out);
  flightrec::fuzz::check_values(out);
  return 0;
}
