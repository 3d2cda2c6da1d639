// Feeds arbitrary bytes to parse_stat, both against the CPUs the bytes themselves list and
// against a fixed 4-CPU layout (CPUs that vanish, appear or repeat).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "flightrec/sampler/sources/stat.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::sampler;
  const auto text = flightrec::fuzz::as_text(data, size);
  static const StatLayout fixed = parse_stat_layout("cpu  0\ncpu0 0\ncpu1 0\ncpu2 0\ncpu3 0\n");
  for (const StatLayout& layout : {parse_stat_layout(text), fixed}) {
    std::vector<int64_t> out(stat_value_count(layout));
    parse_stat(text, layout, out);
    flightrec::fuzz::check_values(out);
  }
  return 0;
}
