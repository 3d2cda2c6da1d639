#include "flightrec/replay/rss_growth.h"

#include <algorithm>

namespace flightrec::replay {
namespace {

using process::ProcessFrame;
using process::ProcessRow;

// The same process in another frame: its pid, and its start time so that a reused pid is not it.
const ProcessRow* same_process(const ProcessFrame& frame, const ProcessRow& row) {
  const auto found = std::lower_bound(frame.processes.begin(), frame.processes.end(), row.pid,
                                      [](const ProcessRow& r, int32_t pid) { return r.pid < pid; });
  if (found == frame.processes.end() || found->pid != row.pid ||
      found->start_time_unix_ns != row.start_time_unix_ns) {
    return nullptr;
  }
  return &*found;
}

int64_t grown(const ProcessRow& now, const ProcessRow& then) {
  return static_cast<int64_t>(now.rss_bytes) - static_cast<int64_t>(then.rss_bytes);
}

// A process the span's first frame does not hold: one born since grows from the first frame after
// its start that holds it. A start time is the boot time plus the kernel's ticks, and the boot time
// an estimate (1 s resolution, as model/process_rates.h allows): the search starts that much before
// it, and walks on through the run it lands in and the next one. One that started before the span
// (a tick left it out of its first frame) gets no growth, as it gets no rate, rather than a search
// through every block of the span.
std::optional<int64_t> growth_since_birth(const ProcessHistory& history, const ProcessRow& row,
                                          int64_t base_ns, int64_t now) {
  constexpr int64_t kStartSlackNs = 1'000'000'000;
  if (row.start_time_unix_ns < base_ns - kStartSlackNs) return std::nullopt;
  int64_t after = std::max(base_ns, row.start_time_unix_ns - kStartSlackNs);
  if (after >= now) return 0;  // a start time past the frame's: first seen in it
  for (int runs = 0; runs < 2; ++runs) {
    const ProcessHistory::At first = history.first_after(after);
    if (first.frame == nullptr) return std::nullopt;
    for (auto frame = first.frame; frame != first.run->data() + first.run->size(); ++frame) {
      if (frame->time_unix_ns >= now) return 0;  // first seen in the current frame
      if (const ProcessRow* then = same_process(*frame, row)) return grown(row, *then);
      after = frame->time_unix_ns;
    }
  }
  return std::nullopt;
}

}  // namespace

RssGrowth rss_growth(const ProcessHistory& history, const ProcessFrame& current, int64_t span_ns) {
  const int64_t now = current.time_unix_ns;
  // Frame times are Unix times, after 1970: a span longer than that reaches every frame.
  const int64_t start = span_ns >= now ? std::numeric_limits<int64_t>::min() : now - span_ns;
  // A span reaching before the recording starts from its first frame.
  const ProcessHistory::At base = start < history.first_time()
                                      ? history.first_after(std::numeric_limits<int64_t>::min())
                                      : history.at_or_before(start);
  RssGrowth growth;
  // No frame to start from, its block being damaged (ProcessHistory::error() says so): unknown.
  if (base.frame == nullptr) {
    growth.bytes.assign(current.processes.size(), std::nullopt);
    return growth;
  }
  // The current frame is the first: nothing grew yet.
  if (base.frame->time_unix_ns >= now) {
    growth.bytes.assign(current.processes.size(), 0);
    return growth;
  }
  growth.bytes.reserve(current.processes.size());
  for (const ProcessRow& row : current.processes) {
    const ProcessRow* then = same_process(*base.frame, row);
    growth.bytes.push_back(then != nullptr
                               ? std::optional(grown(row, *then))
                               : growth_since_birth(history, row, base.frame->time_unix_ns, now));
  }
  return growth;
}

}  // namespace flightrec::replay
