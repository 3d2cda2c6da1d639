#pragma once
// One container's period strip over a recording's container frames, up to a moment (replay's
// cursor, the end of the viewer's window): each CFS period, whether the group was throttled
// in it and for how long (docs/CONTAINERS.md, "Throttling episodes"). Drawn from the kernel's
// throttling episodes when the frames recorded them (eBPF) and hold some of the group whenever its
// nr_throttled grew, by container::period_strip(); else
// from successive cpu.stat reads (the fast tier's, every containers.fast_rate, and the slow
// rounds'), one cell per pair of reads with at least one period between them: a cell of one
// period is that period exactly, one of several their mean.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/container/frame/container_frame.h"

namespace flightrec::container {

enum class StripSource {
  none,      // no CPU quota, or nothing read in the window
  episodes,  // the kernel's throttling episodes
  cpu_stat,  // cpu.stat deltas
};

std::string_view strip_source_name(StripSource source);  // "none", "episodes", "cpu.stat"

struct StripCell {
  int64_t start_ns = 0;  // Unix ns
  int64_t end_ns = 0;
  uint32_t periods = 1;  // CFS periods the cell covers
  // Throttled time in the cell: from episodes the wall time the group was held (on any CPU);
  // from cpu.stat its throttled time, summed over the CPUs it was throttled on.
  int64_t throttled_ns = 0;
  bool throttled = false;  // in at least one of its periods
};

struct ContainerStrip {
  StripSource source = StripSource::none;
  int64_t period_ns = 0;
  std::vector<StripCell> cells;  // oldest first, the newest ending at or before the moment
};

// The container `path` (ContainerRow::path) of `frames` (ascending time): at most `max_cells`
// cells ending at or before `to_ns`.
ContainerStrip container_strip(const std::vector<ContainerFrame>& frames, std::string_view path,
                               int64_t to_ns, size_t max_cells);

// One character per cell: '.' not throttled; '1' to '9' throttled for that many tenths of a
// period (at least one); '#' for the whole period or more (several CPUs at once).
char strip_char(const StripCell& cell, int64_t period_ns);
std::string strip_text(const ContainerStrip& strip);

// "12 of 40 periods throttled, 83ms at most in one" (or "no period throttled").
std::string strip_summary(const ContainerStrip& strip);

}  // namespace flightrec::container
