#pragma once
// The processes at the cursor: the newest process frame at or before it, each row with its rates
// over the interval to an earlier frame, by the rule of model/process_rates.h (matched
// by pid and start time, so a reused pid never yields a rate; a process born since counts from
// zero), and each row's container from the container frame nearest in time to the process frame
// (container/frame/process_container.h).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "flightrec/container/frame/container_frame.h"
#include "flightrec/process/process_frame.h"
#include "flightrec/replay/process_history.h"
#include "flightrec/replay/rss_growth.h"

namespace flightrec::replay {

struct ProcessRates {
  const process::ProcessRow* row = nullptr;
  std::optional<double> cpu;  // CPU time per second: 1.0 = one core busy (htop's 100%)
  std::optional<double> mem;  // rss / MemTotal, 0..1
  std::optional<double> read_bps, write_bps;
  std::optional<double> tx_bps, rx_bps, tx_pps, rx_pps;
  std::optional<double> rss_growth;  // bytes over the grow span (rss_growth.h); none: unknown
  // Its container as the Containers tab names it (container_name()); "" for a process of the
  // host, or when no container frame holds its container.
  std::string container;
};

struct ProcessesAt {
  const process::ProcessFrame* frame = nullptr;     // none before the first frame
  const process::ProcessFrame* previous = nullptr;  // what the rates start from
  std::vector<ProcessRates> rows;                   // frame->processes' order
  std::optional<double> unattributed_tx_bps, unattributed_rx_bps;
  // The decoded frames that frame, previous and the rows point into, held while this is.
  std::shared_ptr<const ProcessHistory::Frames> frame_run, previous_run;
};

// The rates start from the newest frame at least interval_ns before the cursor's frame (the frame
// just before it when frames are further apart than that). `container_frames`, ascending in time,
// name each process's container. RSS growth covers `grow_span_ns` up to the frame (rss_growth.h); 0
// leaves it out (tabs that do not show it).
ProcessesAt processes_at(const ProcessHistory& frames, int64_t time_ns, int64_t interval_ns,
                         int64_t grow_span_ns, std::optional<double> mem_total_bytes,
                         const std::vector<container::ContainerFrame>& container_frames);

}  // namespace flightrec::replay
