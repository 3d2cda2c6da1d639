#include <limits>

#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exposition/conversions.h"

namespace flightrec::exporter::metrics {

using exposition::as_double;
using exposition::Families;
using exposition::seconds;

using prometheus::ClientMetric;

namespace {

// sampler.cpu_budget: the budget, what it is compared with, and each source's rate and changes.
void add_budget(Families& out, const sampler::SamplerStats& stats) {
  out.gauge("flightrec_sampler_cpu_budget_ratio",
            "sampler.cpu_budget: the daemon's CPU, as a share of one core, above which the "
            "sampler reads its costliest sources less often (0: off).",
            "ratio", stats.cpu_budget);
  if (const double used = stats.cpu_used.load(); used >= 0) {
    out.gauge("flightrec_sampler_cpu_budget_used_ratio",
              "The daemon's CPU over the newest full budget window (10 s), as a share of one "
              "core: what flightrec_sampler_cpu_budget_ratio is compared with.",
              "ratio", used);
  }
  for (const auto& s : stats.sources) {
    out.gauge("flightrec_source_rate_seconds",
              "How often each source is read now: sources.<name>.rate in whole sampler ticks, "
              "or slower while sampler.cpu_budget holds it back.",
              "seconds", seconds(s->rate_ns.load()), {{"source", s->name}});
  }
  const std::string changes_help =
      "Changes of each source's rate by sampler.cpu_budget: lowered when over budget, restored "
      "(towards the configured rate) when well under.";
  for (const auto& s : stats.sources) {
    out.counter("flightrec_source_rate_changes_total", changes_help, "",
                as_double(s->rate_lowerings.load()),
                {{"source", s->name}, {"direction", "lowered"}});
    out.counter("flightrec_source_rate_changes_total", changes_help, "",
                as_double(s->rate_restorings.load()),
                {{"source", s->name}, {"direction", "restored"}});
  }
}

}  // namespace

void SamplerCollector::collect(Families& out) const {
  out.counter("flightrec_sampler_ticks_total", "Ticks the sampler read every source in.", "",
              as_double(stats_.ticks.load()));
  out.counter("flightrec_sampler_late_ticks_total",
              "Ticks that started more than half a period after their deadline.", "",
              as_double(stats_.late_ticks.load()));
  out.counter("flightrec_sampler_missed_ticks_total",
              "Deadlines that passed without a tick (the sampler fell a whole period behind; with "
              "the ebpf backend, firings the kernel's timer missed or its full buffer dropped).",
              "", as_double(stats_.missed_ticks.load()));
  out.counter("flightrec_sampler_queue_overflows_total",
              "Frames dropped because the recorder fell behind and the queue was full.", "",
              as_double(stats_.queue_overflows.load()));
  out.gauge("flightrec_sampler_elapsed_seconds",
            "Time from arming the sampler's timer to its newest tick; divided by "
            "flightrec_sampler_rate_seconds, the deadlines passed by then: ticks + missed ticks.",
            "seconds", seconds(stats_.elapsed_ns.load()));
  out.gauge("flightrec_sampler_realtime",
            "Whether the sampler thread runs SCHED_FIFO (sampler.realtime and permitted): 1 or 0.",
            "", stats_.realtime.load() ? 1 : 0);
  out.gauge("flightrec_sampler_backend_info",
            "Where the sampler's ticks come from (sampler.backend): ebpf (a kernel timer records "
            "the CPU counters) or procfs (the sampler thread's own timer); always 1.",
            "", 1, {{"backend", stats_.backend}});

  ClientMetric::Histogram lateness;
  uint64_t cumulative = 0;
  for (size_t i = 0; i < sampler::kLatenessBoundsUs.size(); ++i) {
    cumulative += stats_.lateness.buckets[i].load();
    lateness.bucket.push_back(
        {cumulative, static_cast<double>(sampler::kLatenessBoundsUs[i]) * 1e-6});
  }
  cumulative += stats_.lateness.buckets.back().load();
  lateness.bucket.push_back({cumulative, std::numeric_limits<double>::infinity()});
  lateness.sample_count = cumulative;
  lateness.sample_sum = seconds(static_cast<int64_t>(stats_.lateness.sum_ns.load()));
  out.histogram("flightrec_sampler_tick_lateness_seconds",
                "How long after its deadline each tick started.", "seconds", std::move(lateness));

  add_budget(out, stats_);
  for (const auto& s : stats_.sources) {
    out.counter("flightrec_source_reads_total", "Reads of each source.", "",
                as_double(s->reads.load()), {{"source", s->name}});
  }
  for (const auto& s : stats_.sources) {
    out.counter("flightrec_source_read_failures_total",
                "Reads of each source that yielded nothing (file unreadable or unparseable).", "",
                as_double(s->failures.load()), {{"source", s->name}});
  }
  for (const auto& s : stats_.sources) {
    out.counter("flightrec_source_partial_reads_total",
                "Reads of each source that missed some values (a malformed or vanished line).", "",
                as_double(s->partials.load()), {{"source", s->name}});
  }
  for (const auto& s : stats_.sources) {
    out.counter("flightrec_source_read_duration_seconds_total",
                "Time spent reading and parsing each source.", "seconds",
                seconds(static_cast<int64_t>(s->duration_ns_total.load())), {{"source", s->name}});
  }
  for (const auto& s : stats_.sources) {
    out.gauge("flightrec_source_success", "Whether the newest read of each source succeeded.", "",
              s->last_ok.load() ? 1 : 0, {{"source", s->name}});
  }
}

}  // namespace flightrec::exporter::metrics
