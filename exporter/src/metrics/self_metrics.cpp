#include "self_metrics.h"

#include <limits>

#include "family_builder.h"
#include "flightrec/common/version.h"

namespace flightrec::exporter::metrics {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;

double seconds(int64_t ns) { return static_cast<double>(ns) * 1e-9; }
double as_double(uint64_t n) { return static_cast<double>(n); }

}  // namespace

void collect_self(const CollectorInputs& in, const ScrapeCounts& scrapes,
                  std::vector<MetricFamily>& families, exposition::ExtrasByFamily& extras) {
  Families f(families, extras, seconds(in.start_real_ns));
  f.gauge("flightrec_build_info", "flightrec's version, revision and compiler; always 1.", "", 1,
          {{"version", std::string(kVersion)},
           {"revision", std::string(kRevision)},
           {"compiler", std::string(kCompiler)}});
  f.gauge("flightrec_start_time_seconds", "When this flightrec process started (Unix time).",
          "seconds", seconds(in.start_real_ns));
  f.gauge("flightrec_sampler_rate_seconds", "Period of the sampler's fast tier (sampler.rate).",
          "seconds", static_cast<double>(in.sampler->rate().count()) * 1e-9);
  f.gauge("flightrec_export_window_seconds", "Span of the window aggregates (export.window).",
          "seconds", static_cast<double>(in.recorder->window_stats().window().count()) * 1e-9);

  const auto& st = in.sampler->stats();
  f.counter("flightrec_sampler_ticks_total", "Ticks the sampler read every source in.", "",
            as_double(st.ticks.load()));
  f.counter("flightrec_sampler_late_ticks_total",
            "Ticks that started more than half a period after their deadline.", "",
            as_double(st.late_ticks.load()));
  f.counter("flightrec_sampler_missed_ticks_total",
            "Deadlines that passed without a tick (the sampler fell a whole period behind).", "",
            as_double(st.missed_ticks.load()));
  f.counter("flightrec_sampler_queue_overflows_total",
            "Frames dropped because the recorder fell behind and the queue was full.", "",
            as_double(st.queue_overflows.load()));

  ClientMetric::Histogram lateness;
  uint64_t cumulative = 0;
  for (size_t i = 0; i < sampler::kLatenessBoundsUs.size(); ++i) {
    cumulative += st.lateness.buckets[i].load();
    lateness.bucket.push_back(
        {cumulative, static_cast<double>(sampler::kLatenessBoundsUs[i]) * 1e-6});
  }
  cumulative += st.lateness.buckets.back().load();
  lateness.bucket.push_back({cumulative, std::numeric_limits<double>::infinity()});
  lateness.sample_count = cumulative;
  lateness.sample_sum = seconds(static_cast<int64_t>(st.lateness.sum_ns.load()));
  f.histogram("flightrec_sampler_tick_lateness_seconds",
              "How long after its deadline each tick started.", "seconds", std::move(lateness));

  for (const auto& s : st.sources) {
    f.counter("flightrec_source_reads_total", "Reads of each source.", "",
              as_double(s->reads.load()), {{"source", s->name}});
  }
  for (const auto& s : st.sources) {
    f.counter("flightrec_source_read_failures_total",
              "Reads of each source that yielded nothing (file unreadable or unparseable).", "",
              as_double(s->failures.load()), {{"source", s->name}});
  }
  for (const auto& s : st.sources) {
    f.counter("flightrec_source_partial_reads_total",
              "Reads of each source that missed some values (a malformed or vanished line).", "",
              as_double(s->partials.load()), {{"source", s->name}});
  }
  for (const auto& s : st.sources) {
    f.counter("flightrec_source_read_duration_seconds_total",
              "Time spent reading and parsing each source.", "seconds",
              seconds(static_cast<int64_t>(s->duration_ns_total.load())), {{"source", s->name}});
  }
  for (const auto& s : st.sources) {
    f.gauge("flightrec_source_success", "Whether the newest read of each source succeeded.", "",
            s->last_ok.load() ? 1 : 0, {{"source", s->name}});
  }

  f.counter("flightrec_recorder_frames_total", "Frames the recorder moved into the ring.", "",
            as_double(in.recorder->frames_recorded()));
  const store::RingStats ring = in.ring->stats();
  f.gauge("flightrec_ring_bytes",
          "Memory held by the ring's sealed blocks (bounded by "
          "buffer.max_bytes).",
          "bytes", as_double(ring.bytes));
  f.gauge("flightrec_ring_encoded_bytes", "Serialized size of the ring's sealed blocks.", "bytes",
          as_double(ring.encoded_bytes));
  f.gauge("flightrec_ring_frames", "Frames held in the ring's sealed blocks.", "",
          as_double(ring.frames));
  f.gauge("flightrec_ring_span_seconds", "Time between the oldest and newest sealed frame.",
          "seconds", seconds(ring.last_real_ns - ring.first_real_ns));
  f.gauge("flightrec_ring_encoded_bytes_per_value", "Compression: encoded bytes per stored value.",
          "", ring.bytes_per_value());
  f.counter("flightrec_ring_dropped_blocks_total",
            "Blocks dropped from the ring to keep within buffer.duration and buffer.max_bytes.", "",
            as_double(ring.dropped_blocks));
  if (in.incidents != nullptr) {
    const auto incidents = in.incidents->stats();
    for (const auto& [rule, counts] : incidents.by_rule) {
      for (const auto& [status, n] :
           {std::pair{"written", counts.written}, {"failed", counts.failed}}) {
        f.counter("flightrec_incidents_total", "Incidents by rule and outcome since start.", "",
                  as_double(n), {{"rule", rule}, {"status", status}});
      }
    }
    for (const auto cause : incidents::kFailureCauses) {
      f.counter("flightrec_incident_write_failures_total",
                "Incident files that could not be written, by cause.", "",
                as_double(incidents.failed[static_cast<size_t>(cause)]),
                {{"cause", std::string(incidents::cause_name(cause))}});
    }
    f.counter("flightrec_incidents_quarantined_total",
              "Torn or corrupt incident files renamed to *.corrupt at start-up.", "",
              as_double(incidents.quarantined));
    f.counter("flightrec_incidents_retention_deleted_total",
              "Incident files deleted to keep within incidents.max_count and incidents.max_bytes.",
              "", as_double(incidents.retention_deleted));
    f.gauge("flightrec_incident_last_time_seconds",
            "When the newest incident fired (Unix time); 0 before the first.", "seconds",
            seconds(incidents.last_fired_ns));
  }
  if (in.incident_writer != nullptr) {
    f.counter("flightrec_incidents_dropped_total",
              "Incidents dropped because the incident writer was behind.", "",
              as_double(in.incident_writer->dropped()));
  }
  if (in.process_tier != nullptr) {
    const recorder::ProcessRecorderStats& tier = *in.process_tier;
    f.counter("flightrec_process_tier_samples_total", "Process-tier ticks completed.", "",
              as_double(tier.samples.load()));
    f.gauge("flightrec_process_tier_duration_seconds",
            "How long the newest process-tier tick took (/proc, traffic and sockets).", "seconds",
            seconds(tier.last_duration_ns.load()));
    f.counter("flightrec_process_tier_late_ticks_total",
              "Process-tier ticks skipped because the previous one overran its period.", "",
              as_double(tier.late_ticks_total.load()));
    f.gauge("flightrec_process_tier_processes", "Processes in the newest process-tier frame.", "",
            as_double(tier.processes.load()));
    f.counter("flightrec_process_tier_dropped_total",
              "Process rows left out because a tick found more than processes.max_count.", "",
              as_double(tier.dropped_total.load()));
    f.counter("flightrec_process_tier_vanished_total",
              "Processes that exited while the process tier was reading them.", "",
              as_double(tier.vanished_total.load()));
    f.counter("flightrec_process_tier_short_lived_total",
              "Processes that started and exited between two process ticks, known from the "
              "kernel's exit report (eBPF).",
              "", as_double(tier.short_lived_total.load()));
    f.counter("flightrec_process_tier_exits_lost_total",
              "Exit reports lost because the kernel's buffer was full between two ticks.", "",
              as_double(tier.exits_lost_total.load()));
    f.counter("flightrec_process_tier_frames_refused_total",
              "Process frames the process ring could not store (too large for a block, or the "
              "clock went back).",
              "", as_double(tier.frames_refused_total.load()));
    f.counter("flightrec_process_tier_read_errors_total",
              "Per-process reads that failed for another reason than the process exiting.", "",
              as_double(tier.read_errors_total.load()));
    f.counter("flightrec_process_tier_traffic_failures_total",
              "Reads of the network backend that failed.", "",
              as_double(tier.traffic_failures_total.load()));
    f.counter("flightrec_process_tier_socket_failures_total",
              "Reads of the socket tables (sock_diag) that failed.", "",
              as_double(tier.socket_failures_total.load()));
  }
  if (in.process_ring != nullptr) {
    const store::ProcessRingStats ring_stats = in.process_ring->stats();
    f.gauge("flightrec_process_ring_bytes",
            "Memory held by the process ring's sealed blocks (its share of buffer.max_bytes).",
            "bytes", as_double(ring_stats.bytes));
    f.gauge("flightrec_process_ring_frames", "Process-tier frames held in the process ring.", "",
            as_double(ring_stats.frames));
    f.counter("flightrec_process_ring_dropped_blocks_total",
              "Process blocks dropped to keep within buffer.duration and the ring's byte bound.",
              "", as_double(ring_stats.dropped_blocks));
  }
  f.gauge("flightrec_scrape_duration_seconds",
          "How long the previous /metrics request took to collect and serialize.", "seconds",
          seconds(scrapes.last_duration_ns));
  f.counter("flightrec_scrape_cpu_seconds_total",
            "CPU time spent answering earlier /metrics requests (rendering, compressing, sending).",
            "seconds", seconds(scrapes.cpu_ns));
  f.counter("flightrec_scrapes_total", "Earlier /metrics responses, by the format negotiated.", "",
            as_double(scrapes.text), {{"format", "text-0.0.4"}});
  f.counter("flightrec_scrapes_total", "Earlier /metrics responses, by the format negotiated.", "",
            as_double(scrapes.openmetrics), {{"format", "openmetrics-1.0.0"}});
}

}  // namespace flightrec::exporter::metrics
