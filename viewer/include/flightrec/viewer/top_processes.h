#pragma once
// The processes that used the most CPU or memory around a moment: two consecutive process frames,
// the one at or before the moment and the next, compared process by process, with each one's
// resident-set growth over the whole window (rss_growth.h).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "flightrec/process/process_frame.h"
#include "flightrec/store/process_block.h"
#include "flightrec/viewer/rss_growth.h"

namespace flightrec::viewer {

struct ProcessUsage {
  int32_t pid = 0;
  std::string comm;
  std::string cmdline;
  char state = '?';
  // CPU time over wall time between the two frames: 1.0 is one CPU busy throughout. Empty when
  // there is nothing to compare with (a pid reused by a process that started before the first
  // frame, a counter that went backwards, a recording of one frame).
  std::optional<double> cpu_ratio;
  uint64_t rss_bytes = 0;
  std::optional<int64_t> rss_growth_bytes;      // over the window (RssGrowth); empty without one
  std::optional<double> read_bytes_per_second;  // storage I/O, /proc/<pid>/io
  std::optional<double> write_bytes_per_second;
  std::optional<double> transmit_bytes_per_second;  // network backend
  std::optional<double> receive_bytes_per_second;
};

// What the table is sorted by first: the resource the incident's rule watches (rule_focus.h).
enum class ProcessSort : uint8_t { cpu, rss };

struct TopProcesses {
  int64_t from_ns = 0;  // the two frames compared; equal when the recording holds only one
  int64_t to_ns = 0;
  int64_t growth_from_ns = 0;  // the window the growth is measured over (RssGrowth)
  int64_t growth_to_ns = 0;
  ProcessSort sort = ProcessSort::cpu;
  // The `limit` busiest by CPU, the `limit` biggest by RSS and the `limit` fastest growing, each
  // once, in `sort` order: a memory hog at 0 % CPU is listed whatever the page sorts by.
  std::vector<ProcessUsage> rows;
};

// `frames` in time order. Empty rows when there is no frame. Rates follow
// model/process_rates.h: a process is matched across the two frames by pid and start
// time; one that started after the first frame is measured from zero. Ties go to more memory,
// then more CPU, then the lower pid.
TopProcesses top_processes(std::span<const process::ProcessFrame> frames, int64_t at_ns,
                           size_t limit, const RssGrowth& growth = {},
                           ProcessSort sort = ProcessSort::cpu);

// The frames of `blocks` near `at_ns`: those within the narrowest of +-1 s, 2 s, ... 128 s that
// holds at least two, decoding only the blocks that overlap it. A page needs the two frames
// around one moment; decoding a whole ring or incident for them could take gigabytes.
std::vector<process::ProcessFrame> frames_near(
    std::span<const std::shared_ptr<const store::ProcessBlock>> blocks, int64_t at_ns);

}  // namespace flightrec::viewer
