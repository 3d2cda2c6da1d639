#include "flightrec/recorder/heap_trim.h"

#include <malloc.h>

#include <algorithm>

namespace flightrec::recorder {

void bound_heap_retention() {
  ::mallopt(M_TRIM_THRESHOLD, 1 << 20);
  ::mallopt(M_MMAP_THRESHOLD, 4 << 20);
  ::mallopt(M_ARENA_MAX, 4);
}

std::string_view HeapTrim::due(uint64_t rows, Clock::time_point at) {
  peak_rows_ = std::max(peak_rows_, rows);
  if (rows <= peak_rows_ / 2 && peak_rows_ - rows >= kMinRows) {
    // A fall: trim now, and again as each holder lets the fallen processes go. A fall before the
    // last one's trims are done replaces them: its own come later.
    pending_.clear();
    pending_.push_back({at, "the processes fell"});
    for (const Hold& hold : holds_) pending_.push_back({at + hold.after, hold.what});
    std::sort(pending_.begin(), pending_.end(),
              [](const Pending& a, const Pending& b) { return a.at < b.at; });
    peak_rows_ = rows;
  }
  if (pending_.empty() || pending_.front().at > at) return {};
  if (trimmed_ && at - last_trim_ < kMinInterval) return {};  // stays due
  // Several due at once (a tick came late, or the interval held them): one trim serves them all.
  std::string_view why;
  while (!pending_.empty() && pending_.front().at <= at) {
    why = pending_.front().why;
    pending_.erase(pending_.begin());
  }
  last_trim_ = at;
  trimmed_ = true;
  return why;
}

}  // namespace flightrec::recorder
