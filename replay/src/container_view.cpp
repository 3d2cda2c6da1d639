#include "flightrec/replay/container_view.h"

#include <algorithm>

#include "flightrec/container/frame/display_name.h"
#include "flightrec/replay/format.h"
#include "frames_around.h"

namespace flightrec::replay {
namespace {

using container::CgroupStats;
using container::ContainerFrame;
using container::ContainerRow;
using container::kAbsent;

// The growth of a counter; none when either read is missing or it went back.
std::optional<double> growth(int64_t before, int64_t now) {
  if (before == kAbsent || now == kAbsent || now < before) return std::nullopt;
  return static_cast<double>(now - before);
}

std::optional<double> per_second(std::optional<double> amount, double seconds) {
  if (!amount || seconds <= 0) return std::nullopt;
  return *amount / seconds;
}

// The row of `frame` that is the same cgroup as `row`: its path, and its id, since a path can be
// reused by another container (a pod's container restarted under a new id).
const ContainerRow* same_container(const ContainerFrame& frame, const ContainerRow& row) {
  const auto found = std::lower_bound(
      frame.containers.begin(), frame.containers.end(), row.path,
      [](const ContainerRow& r, const std::string& path) { return r.path < path; });
  if (found == frame.containers.end() || found->path != row.path || found->id != row.id) {
    return nullptr;
  }
  return &*found;
}

// Bytes read and written over every device of `now` that `before` also lists.
void io_rates(const CgroupStats& before, const CgroupStats& now, double seconds,
              ContainerRates& out) {
  std::optional<double> read, write;
  for (size_t i = 0; i < now.io.count; ++i) {
    const auto& device = now.io.devices[i];
    for (size_t j = 0; j < before.io.count; ++j) {
      const auto& old = before.io.devices[j];
      if (old.major != device.major || old.minor != device.minor) continue;
      if (const auto r = growth(old.read_bytes, device.read_bytes)) read = read.value_or(0) + *r;
      if (const auto w = growth(old.write_bytes, device.write_bytes)) {
        write = write.value_or(0) + *w;
      }
    }
  }
  out.read_bps = per_second(read, seconds);
  out.write_bps = per_second(write, seconds);
}

void rates(const CgroupStats& before, const CgroupStats& now, double seconds, ContainerRates& out) {
  const auto usage_us = growth(before.cpu.usage_us, now.cpu.usage_us);
  if (usage_us) out.cpu = per_second(*usage_us / 1e6, seconds);
  const auto periods = growth(before.cpu.periods, now.cpu.periods);
  if (periods && *periods > 0) {
    if (const auto throttled = growth(before.cpu.throttled_periods, now.cpu.throttled_periods)) {
      out.throttled_ratio = *throttled / *periods;
    }
    if (const auto throttled_us = growth(before.cpu.throttled_us, now.cpu.throttled_us)) {
      out.throttled_ms = *throttled_us / 1e3 / *periods;
    }
  } else if (periods) {
    out.throttled_ratio = 0;  // no period ran out: nothing to throttle in
    out.throttled_ms = 0;
  }
  const auto& events = now.memory.events;
  const auto& old_events = before.memory.events;
  out.events_high = growth(old_events.high, events.high);
  out.events_max = growth(old_events.max, events.max);
  out.events_oom_kill = growth(old_events.oom_kill, events.oom_kill);
  const auto stall = [&](const container::Pressure& b, const container::Pressure& n) {
    const auto us = growth(b.some_us, n.some_us);
    return us ? per_second(*us / 1e6, seconds) : std::nullopt;
  };
  out.cpu_pressure = stall(before.cpu_pressure, now.cpu_pressure);
  out.memory_pressure = stall(before.memory_pressure, now.memory_pressure);
  out.io_pressure = stall(before.io_pressure, now.io_pressure);
  io_rates(before, now, seconds, out);
}

ContainerRates levels(const ContainerRow& row) {
  const CgroupStats& s = row.stats;
  ContainerRates out{.row = &row, .name = container_name(row)};
  const auto& bandwidth = s.bandwidth;
  if (const auto quota = container::set_limit(bandwidth.quota_us);
      quota && bandwidth.period_us > 0) {
    out.quota = *quota / static_cast<double>(bandwidth.period_us);
  }
  out.memory_bytes = container::read_value(s.memory.usage_bytes);
  out.limit_bytes = container::set_limit(s.memory.limit_bytes);
  out.high_bytes = container::set_limit(s.memory.high_bytes);
  if (out.memory_bytes && out.limit_bytes && *out.limit_bytes > 0) {
    out.memory_fill = *out.memory_bytes / *out.limit_bytes;
  }
  if (const auto us = container::read_value(s.cpu.usage_us)) out.cpu_time_seconds = *us / 1e6;
  out.tasks = container::read_value(s.pids.current);
  return out;
}

}  // namespace

std::string container_name(const ContainerRow& row) {
  return printable(container::display_name(row));
}

ContainersAt containers_at(const std::vector<ContainerFrame>& frames, int64_t time_ns,
                           int64_t interval_ns) {
  ContainersAt at;
  const auto around = frames_around(frames, time_ns, interval_ns);
  if (around.frame == nullptr) return at;
  const ContainerFrame* const current = around.frame;
  at.frame = current;
  at.previous = around.previous;
  const double seconds =
      at.previous != nullptr
          ? static_cast<double>(current->time_unix_ns - at.previous->time_unix_ns) / 1e9
          : 0;
  for (const ContainerRow& row : current->containers) {
    ContainerRates view = levels(row);
    const ContainerRow* before = at.previous ? same_container(*at.previous, row) : nullptr;
    if (before != nullptr) rates(before->stats, row.stats, seconds, view);
    // Without a quota nothing throttles it: its throttling is no value rather than 0.
    if (!view.quota) view.throttled_ratio = view.throttled_ms = std::nullopt;
    at.rows.push_back(std::move(view));
  }
  return at;
}

}  // namespace flightrec::replay
