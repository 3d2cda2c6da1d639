// read_recording over arbitrary bytes: it must return an error or a recording whose blocks match
// its metadata and whose process and container frames ascend in time, and never crash; a
// recording it accepts must convert to text without crashing, its container frames included.
// Process frames are capped at 2^16 rows so that a few bytes of copied-forward rows cannot exhaust
// the fuzzer's memory.
#include <cstddef>
#include <cstdint>
#include <span>

#include "flightrec/container/frame/container_frame_codec.h"
#include "flightrec/recording/convert.h"
#include "flightrec/recording/recording_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::recording;
  const auto result = read_recording(std::span(data, size), 1 << 16);
  if (!result.ok()) {
    if (result.error().empty()) __builtin_trap();
    return 0;
  }
  const auto& frames = result->process_frames;
  for (size_t i = 1; i < frames.size(); ++i) {
    if (frames[i].time_unix_ns < frames[i - 1].time_unix_ns) __builtin_trap();
  }
  const auto& containers = result->container_frames;
  for (size_t i = 1; i < containers.size(); ++i) {
    if (containers[i].time_unix_ns < containers[i - 1].time_unix_ns) __builtin_trap();
  }
  for (const auto& block : result->blocks) {
    if (block->series() != result->meta.series.size()) __builtin_trap();
  }
  TextConverter converter(DumpFormat::json, result->meta, {},
                          [](std::string_view) { return true; });
  for (const auto& block : result->blocks) converter.add(block);
  for (const auto& frame : containers) {
    converter.add_container_frame({.time_unix_ns = frame.time_unix_ns,
                                   .bytes = flightrec::container::encode_container_frame(frame)});
  }
  converter.finish();
  return 0;
}
