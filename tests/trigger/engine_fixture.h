#pragma once
// A small host for trigger tests: derived signals shaped like the recorder's (total and per-CPU
// busy ratios, memory used, a keyed disk rate) and raw series, and a feed that plays frames at 1
// ms.
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "flightrec/config/trigger_rules.h"
#include "flightrec/model/signals.h"
#include "flightrec/sampler/slot_table.h"

namespace flightrec::trigger::testing {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

enum Derived : size_t { kCpuTotal, kCpu0, kCpu1, kMemoryUsed, kDiskRead0, kDiskRead1, kDerived };
enum Raw : size_t { kMemAvailable, kRaw };

struct Host {
  std::shared_ptr<sampler::SlotTable> disks = std::make_shared<sampler::SlotTable>(2);
  std::vector<model::Signal> signals;
  sampler::Schema schema;

  Host() {
    auto signal = [](std::string name, std::vector<std::pair<std::string, std::string>> labels) {
      model::Signal s;
      s.desc.name = std::move(name);
      s.desc.labels = std::move(labels);
      return s;
    };
    signals.push_back(signal("cpu_busy_ratio", {{"cpu", "total"}}));
    signals.push_back(signal("cpu_busy_ratio", {{"cpu", "0"}}));
    signals.push_back(signal("cpu_busy_ratio", {{"cpu", "1"}}));
    signals.push_back(signal("memory_used_bytes", {}));
    for (uint32_t slot = 0; slot < 2; ++slot) {
      model::Signal disk = signal("disk_read_bytes_per_second", {});
      disk.desc.keys = disks.get();
      disk.desc.key_slot = slot;
      disk.desc.key_label = "device";
      signals.push_back(disk);
    }
    sampler::SeriesDesc available;
    available.name = "memory_available_bytes";
    available.scale = 1024;  // stored in KiB, as /proc/meminfo gives it
    schema.push_back(available);
  }
};

inline config::TriggerRule rule(std::string name, std::string selector, config::Comparison op,
                                double value) {
  config::TriggerRule r;
  r.name = std::move(name);
  r.signal = std::move(selector);
  r.selector = *config::parse_signal_selector(r.signal);
  r.op = op;
  r.value = value;
  return r;
}

}  // namespace flightrec::trigger::testing
