#include "flightrec/viewer/rss_growth.h"

#include <functional>

namespace flightrec::viewer {

size_t RssGrowth::KeyHash::operator()(const Key& key) const noexcept {
  // Unsigned: the multiplication wraps instead of overflowing, as a hash may.
  return std::hash<uint64_t>{}(static_cast<uint64_t>(key.start_time_unix_ns) * 31 +
                               static_cast<uint32_t>(key.pid));
}

std::optional<int64_t> RssGrowth::of(int32_t pid, int64_t start_time_unix_ns) const {
  const auto found = seen.find({pid, start_time_unix_ns});
  if (found == seen.end()) return std::nullopt;
  return static_cast<int64_t>(found->second.last_rss) -
         static_cast<int64_t>(found->second.first_rss);
}

RssGrowth rss_growth(std::span<const std::shared_ptr<const store::ProcessBlock>> blocks,
                     store::TimeRange range) {
  RssGrowth growth;
  for (const auto& block : blocks) {
    if (block->last_time_ns() < range.from_real_ns || block->first_time_ns() > range.to_real_ns) {
      continue;
    }
    block->for_each_frame([&](const process::ProcessFrame& frame) {
      if (!range.contains(frame.time_unix_ns)) return frame.time_unix_ns <= range.to_real_ns;
      if (growth.from_ns == 0) growth.from_ns = frame.time_unix_ns;
      growth.to_ns = frame.time_unix_ns;
      for (const auto& row : frame.processes) {
        // The first sight sets first_rss; every sight, the last one included, sets last_rss.
        auto& seen = growth.seen
                         .try_emplace({row.pid, row.start_time_unix_ns},
                                      RssGrowth::Seen{.first_rss = row.rss_bytes})
                         .first->second;
        seen.last_rss = row.rss_bytes;
      }
      return true;
    });
  }
  return growth;
}

}  // namespace flightrec::viewer
