#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exposition/conversions.h"

namespace flightrec::exporter::metrics {

using exposition::as_double;
using exposition::Families;
using exposition::seconds;

void ProcessTierCollector::collect(Families& out) const {
  if (!backend_.empty()) {
    out.gauge("flightrec_process_tier_backend_info",
              "How the process tier reads every process's counters (processes.backend); always 1.",
              "", 1, {{"backend", backend_}});
  }
  out.counter("flightrec_process_tier_samples_total", "Process-tier ticks completed.", "",
              as_double(stats_.samples.load()));
  out.gauge("flightrec_process_tier_duration_seconds",
            "How long the newest process-tier tick took (/proc, traffic and sockets).", "seconds",
            seconds(stats_.last_duration_ns.load()));
  out.counter("flightrec_process_tier_late_ticks_total",
              "Process-tier ticks skipped because the previous one overran its period.", "",
              as_double(stats_.late_ticks_total.load()));
  out.gauge("flightrec_process_tier_processes", "Processes in the newest process-tier frame.", "",
            as_double(stats_.processes.load()));
  out.counter("flightrec_process_tier_dropped_total",
              "Process rows left out because a tick found more than processes.max_count.", "",
              as_double(stats_.dropped_total.load()));
  out.counter("flightrec_process_tier_vanished_total",
              "Processes that exited while the process tier was reading them.", "",
              as_double(stats_.vanished_total.load()));
  out.counter("flightrec_process_tier_short_lived_total",
              "Processes that started and exited between two process ticks, known from the "
              "kernel's exit report (eBPF).",
              "", as_double(stats_.short_lived_total.load()));
  out.counter("flightrec_process_tier_exits_lost_total",
              "Exit reports lost because the kernel's buffer was full between two ticks.", "",
              as_double(stats_.exits_lost_total.load()));
  out.counter("flightrec_process_tier_frames_refused_total",
              "Process frames the process ring could not store (too large for a block, or the "
              "clock went back).",
              "", as_double(stats_.frames_refused_total.load()));
  out.counter("flightrec_process_tier_read_errors_total",
              "Per-process reads that failed for another reason than the process exiting.", "",
              as_double(stats_.read_errors_total.load()));
  out.counter("flightrec_process_tier_traffic_failures_total",
              "Reads of the network backend that failed.", "",
              as_double(stats_.traffic_failures_total.load()));
  out.counter("flightrec_process_tier_socket_reads_total",
              "Reads of the socket tables (processes.sockets_rate; with the sock_diag backend the "
              "traffic reads carry them instead).",
              "", as_double(stats_.socket_reads_total.load()));
  out.counter("flightrec_process_tier_socket_failures_total",
              "Reads of the socket tables (sock_diag) that failed.", "",
              as_double(stats_.socket_failures_total.load()));
  const store::ProcessRingStats ring_stats = ring_.stats();
  out.gauge("flightrec_process_ring_bytes",
            "Memory held by the process ring's sealed blocks (its share of buffer.max_bytes).",
            "bytes", as_double(ring_stats.bytes));
  out.gauge("flightrec_process_ring_frames", "Process-tier frames held in the process ring.", "",
            as_double(ring_stats.frames));
  out.counter("flightrec_process_ring_dropped_blocks_total",
              "Process blocks dropped to keep within buffer.duration and the ring's byte bound.",
              "", as_double(ring_stats.dropped_blocks));
}

}  // namespace flightrec::exporter::metrics
