#pragma once
// How much each process's resident set grew over a window (atop's RGROW): its RSS in the last
// process frame of the window that holds it minus its RSS in the first, a process known by pid
// and start time. The top-process table shows it so that a leak reads as a leak even when the
// leaking process is not yet the biggest.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>

#include "flightrec/store/cursor.h"
#include "flightrec/store/process_block.h"

namespace flightrec::viewer {

struct RssGrowth {
  int64_t from_ns = 0;  // the first and last process frame of the window; 0 when it has none
  int64_t to_ns = 0;
  // Bytes grown (negative: shrank) of the process `pid` started at `start_time_unix_ns`; empty
  // when no frame of the window holds it.
  [[nodiscard]] std::optional<int64_t> of(int32_t pid, int64_t start_time_unix_ns) const;

  struct Seen {
    uint64_t first_rss = 0;
    uint64_t last_rss = 0;
  };
  struct Key {
    int32_t pid = 0;
    int64_t start_time_unix_ns = 0;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& key) const noexcept;
  };
  std::unordered_map<Key, Seen, KeyHash> seen;
};

// Streams the frames of `blocks` inside `range` once, keeping two numbers per process, not the
// frames: a window of thousands of processes is measured without holding its frames.
RssGrowth rss_growth(std::span<const std::shared_ptr<const store::ProcessBlock>> blocks,
                     store::TimeRange range);

}  // namespace flightrec::viewer
