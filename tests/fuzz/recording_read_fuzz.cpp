// read_recording over arbitrary bytes: it must return an error or a recording whose blocks match
// its metadata, and never crash; a recording it accepts must convert to text without crashing.
#include <cstddef>
#include <cstdint>
#include <span>

#include "flightrec/recording/convert.h"
#include "flightrec/recording/recording_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::recording;
  const auto result = read_recording(std::span(data, size));
  if (!result.ok()) {
    if (!result.recording.blocks.empty()) __builtin_trap();
    return 0;
  }
  for (const auto& block : result.recording.blocks) {
    if (block->series() != result.recording.meta.series.size()) __builtin_trap();
  }
  TextConverter converter(DumpFormat::json, result.recording.meta, {},
                          [](std::string_view) { return true; });
  for (const auto& block : result.recording.blocks) converter.add(block);
  converter.finish();
  return 0;
}
