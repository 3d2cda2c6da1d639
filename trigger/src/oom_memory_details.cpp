#include "flightrec/trigger/oom_memory_details.h"

#include <string>

#include "flightrec/model/oom_memory.h"

namespace flightrec::trigger {
namespace {

namespace keys = model::oom_detail_keys;

void add_victim(const model::OomMemoryScan& scan, int32_t victim_pid, recording::Labels& details) {
  const model::VictimRss& victim = scan.victim();
  if (victim_pid == 0) return;
  if (scan.top_at_ns() == 0) {
    details.emplace_back(keys::kVictimRssCurve,
                         "not recorded: no process frame in the window before the kill");
    return;
  }
  if (victim.samples == 0) {
    // Process frames come every sampler.process_rate: a process that grew and died between two of
    // them left none; the kernel's reports of its size are then all there is.
    details.emplace_back(keys::kVictimRssCurve,
                         "not recorded: the victim lived between two process frames; "
                         "oom.victim_rss_bytes (kernel log, at the kill) or "
                         "oom.victim_exit_peak_rss_bytes (exit report) give its size");
    return;
  }
  details.emplace_back(keys::kVictimRssSamples, std::to_string(victim.samples));
  details.emplace_back(keys::kVictimLastRssBytes, std::to_string(victim.last_bytes));
  details.emplace_back(keys::kVictimLastRssAtNs, std::to_string(victim.last_at_ns));
  details.emplace_back(keys::kVictimPeakRssBytes, std::to_string(victim.peak_bytes));
  details.emplace_back(keys::kVictimPeakRssAtNs, std::to_string(victim.peak_at_ns));
  if (!victim.cmdline.empty()) details.emplace_back(keys::kVictimCmdline, victim.cmdline);
  if (!victim.container_id.empty()) {
    details.emplace_back(keys::kVictimContainerId, victim.container_id);
  }
}

}  // namespace

recording::Labels oom_memory_details(
    const std::vector<std::shared_ptr<const store::ProcessBlock>>& blocks, int64_t window_from_ns,
    int64_t killed_at_ns, int32_t victim_pid) {
  model::OomMemoryScan scan(killed_at_ns, victim_pid, kOomTopConsumers);
  for (const auto& block : blocks) {
    if (block->last_time_ns() < window_from_ns) continue;
    if (block->first_time_ns() > killed_at_ns) break;
    block->for_each_frame([&](const store::ProcessBlock::Frame& frame) {
      return frame.time_unix_ns < window_from_ns || scan.add(frame);
    });
  }
  recording::Labels details;
  if (scan.top_at_ns() != 0) {
    details.emplace_back(keys::kTopRssAtNs, std::to_string(scan.top_at_ns()));
    for (size_t i = 0; i < scan.top().size(); ++i) {
      details.emplace_back(std::string(keys::kTopRssPrefix) + std::to_string(i + 1),
                           model::format_resident(scan.top()[i]));
    }
  }
  add_victim(scan, victim_pid, details);
  return details;
}

}  // namespace flightrec::trigger
