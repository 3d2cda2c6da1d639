#include "flightrec/replay/process_view.h"

#include "flightrec/container/frame/process_container.h"
#include "flightrec/model/process_rates.h"
#include "flightrec/replay/container_view.h"

namespace flightrec::replay {

using process::ProcessFrame;

ProcessesAt processes_at(const ProcessHistory& frames, int64_t time_ns, int64_t interval_ns,
                         int64_t grow_span_ns, std::optional<double> mem_total_bytes,
                         const std::vector<container::ContainerFrame>& container_frames) {
  ProcessesAt at;
  auto around = frames.around(time_ns, interval_ns);
  if (around.frame == nullptr) return at;
  const ProcessFrame* const current = around.frame;
  at.frame = current;
  at.previous = around.previous;
  at.frame_run = std::move(around.frame_run);
  at.previous_run = std::move(around.previous_run);
  const auto rates = model::process_rates(at.previous, *current);
  const RssGrowth growth =
      grow_span_ns > 0 ? rss_growth(frames, *current, grow_span_ns) : RssGrowth{};
  // The container frame nearest the process frame, on either side: the container tier writes one
  // a second, the process tier four, and a container found just after a process frame is its own.
  const int64_t nearest =
      container::nearest_frame(container_frames, current->time_unix_ns,
                               [](const container::ContainerFrame& f) { return f.time_unix_ns; });
  const container::ContainerLookup containers =
      nearest < 0 ? container::ContainerLookup()
                  : container::ContainerLookup(container_frames[static_cast<size_t>(nearest)]);
  for (size_t i = 0; i < current->processes.size(); ++i) {
    const auto& row = current->processes[i];
    const auto& measured = rates.processes[i];
    ProcessRates view{.row = &row,
                      .cpu = measured.cpu,
                      .read_bps = measured.read_bytes,
                      .write_bps = measured.write_bytes,
                      .tx_bps = measured.net.tx_bytes,
                      .rx_bps = measured.net.rx_bytes,
                      .tx_pps = measured.net.tx_packets,
                      .rx_pps = measured.net.rx_packets};
    if (const auto* in = containers.find(row.cgroup, row.container_id)) {
      view.container = container_name(*in);
    }
    if (i < growth.bytes.size() && growth.bytes[i]) {
      view.rss_growth = static_cast<double>(*growth.bytes[i]);
    }
    if (mem_total_bytes && *mem_total_bytes > 0) {
      view.mem = static_cast<double>(row.rss_bytes) / *mem_total_bytes;
    }
    at.rows.push_back(view);
  }
  at.unattributed_tx_bps = rates.unattributed.tx_bytes;
  at.unattributed_rx_bps = rates.unattributed.rx_bytes;
  return at;
}

}  // namespace flightrec::replay
