#include <fstream>

#include "flightrec/common/log.h"
#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exposition/conversions.h"

namespace flightrec::exporter::metrics {

using exposition::as_double;
using exposition::Families;
using exposition::seconds;

SelfCostCollector::SelfCostCollector(Settings settings)
    : settings_(std::move(settings)),
      threads_(settings_.procfs),
      bpf_programs_(settings_.procfs / "self" / "fd", settings_.bpf_reader) {
  if (bpf_programs_.empty() || !settings_.enable_bpf_stats) return;
  bpf_stats_ = std::make_unique<ebpf::BpfStatsSwitch>();
  if (bpf_stats_->on()) {
    log::info("BPF run statistics enabled");
  } else if (!bpf_stats_on()) {
    log::warn("no BPF run statistics", {{"reason", bpf_stats_->why_not()}});
  }
}

// Counting is on while any holder of a BPF_ENABLE_STATS fd lives or the sysctl says so.
bool SelfCostCollector::bpf_stats_on() const {
  if (bpf_stats_ && bpf_stats_->on()) return true;
  std::ifstream sysctl(settings_.procfs / "sys" / "kernel" / "bpf_stats_enabled");
  int enabled = 0;
  return static_cast<bool>(sysctl >> enabled) && enabled == 1;
}

void SelfCostCollector::collect(Families& out) const {
  ThreadCpuReader::Totals totals{};
  if (threads_.read(totals)) {
    for (const auto& [group, name] : kThreadGroupNames) {
      out.counter("flightrec_self_cpu_seconds_total",
                  "CPU time flightrec's own threads spent, by thread group (scheduler "
                  "accounting, exited threads included).",
                  "seconds", seconds(static_cast<int64_t>(totals[static_cast<size_t>(group)])),
                  {{"thread", std::string(name)}});
    }
  }
  if (!bpf_programs_.empty()) collect_bpf(out);
}

void SelfCostCollector::collect_bpf(Families& out) const {
  const bool on = bpf_stats_on();
  out.gauge("flightrec_bpf_stats_enabled",
            "1 while the kernel counts BPF program run time, 0 when it was not permitted "
            "(then no run time is exported).",
            "", on ? 1 : 0);
  if (!on) return;
  auto programs = bpf_programs_.read();
  // Programs are ordered by name: two programs of one name make one series.
  for (size_t i = 0; i + 1 < programs.size();) {
    if (programs[i].name == programs[i + 1].name) {
      programs[i].run_time_ns += programs[i + 1].run_time_ns;
      programs[i].run_count += programs[i + 1].run_count;
      programs.erase(programs.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    } else {
      ++i;
    }
  }
  for (const auto& program : programs) {
    out.counter("flightrec_bpf_run_seconds_total",
                "Time the kernel spent running this flightrec BPF program while BPF statistics "
                "were enabled.",
                "seconds", seconds(static_cast<int64_t>(program.run_time_ns)),
                {{"program", program.name}});
  }
  for (const auto& program : programs) {
    out.counter("flightrec_bpf_run_count_total",
                "Runs of this flightrec BPF program while BPF statistics were enabled.", "",
                as_double(program.run_count), {{"program", program.name}});
  }
}

}  // namespace flightrec::exporter::metrics
