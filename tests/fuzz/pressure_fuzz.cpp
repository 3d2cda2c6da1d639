#include <array>
#include <cstddef>
#include <cstdint>

#include "flightrec/sampler/sources/pressure.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::sampler;
  std::array<int64_t, kPressureValuesPerFile> out{};
  parse_pressure(flightrec::fuzz::as_text(data, size), out);
  flightrec::fuzz::check_values(out);
  return 0;
}
