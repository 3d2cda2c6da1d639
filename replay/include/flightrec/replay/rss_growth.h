#pragma once
// atop's RGROW over a span ending at the cursor's process frame: how much each process's RSS grew
// (or shrank) since the frame newest at or before the span's start, or, for a process that frame
// does not hold (born since, matched by pid and start time), since the first frame after its
// start. The span's start costs one block decode at most; a process born in a block neither that
// frame nor the cursor's is in costs that block's (and the next one's when it is first seen
// there).
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "flightrec/process/process_frame.h"
#include "flightrec/replay/process_history.h"

namespace flightrec::replay {

// A span reaching back to the recording's first frame, whatever its length.
inline constexpr int64_t kWholeRecording = std::numeric_limits<int64_t>::max();

struct RssGrowth {
  // One per current.processes row, in its order: bytes grown (negative: shrunk); none for a
  // process that started before the span but is not in its first frame, or that no frame after
  // its start holds (ticks that left it out).
  std::vector<std::optional<int64_t>> bytes;
};

RssGrowth rss_growth(const ProcessHistory& history, const process::ProcessFrame& current,
                     int64_t span_ns);

}  // namespace flightrec::replay
