#pragma once
// A warning about an event that can come by the thousand at once (10,000 rules firing on one
// frame, each of their incidents dropped by a full queue), written as a bounded number of lines:
// the first event at once; the events after it within `interval` only counted, the first few by
// name, and written as one line once the interval has passed, by whichever comes first of the next
// note() and flush(). A burst costs two lines and a steady stream one line per interval; each
// line's `count` says how many events it stands for, so the counts add up to every event.
//   level=warn msg="incident dropped: the writer is behind" count=9983 names="r16, r17, r18, ..."
// The level is warn unless told (the connection gate's failures are errors).
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/log.h"

namespace flightrec::log {

class LimitedWarning {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::seconds kDefaultInterval{10};
  static constexpr size_t kNamesKept = 5;

  explicit LimitedWarning(std::string msg, Clock::duration interval = kDefaultInterval,
                          Level level = Level::warn)
      : msg_(std::move(msg)), interval_(interval), level_(level) {}
  // Writes what is still counted, however recently the last line was written.
  ~LimitedWarning();
  LimitedWarning(const LimitedWarning&) = delete;
  LimitedWarning& operator=(const LimitedWarning&) = delete;

  // Any thread: one event; `name` says which (a rule, an alert).
  void note(std::string_view name, Clock::time_point now = Clock::now());
  // Any thread: `events` events seen together, `name` saying one of them (a tick's failed reads,
  // named by the last), so that the counts still add up to every event.
  void note(std::string_view name, uint64_t events, Clock::time_point now = Clock::now());
  // Any thread: writes the events counted since the last line once `interval` has passed since
  // it. Returns when to call it again (nullopt: nothing is counted), for a thread that sleeps.
  std::optional<Clock::time_point> flush(Clock::time_point now = Clock::now());

 private:
  // With mutex_ held: one line for every event counted, which it forgets.
  void write_counted(Clock::time_point now);

  const std::string msg_;
  const Clock::duration interval_;
  const Level level_;
  std::mutex mutex_;
  std::optional<Clock::time_point> last_line_;  // guarded by mutex_, as is what follows
  uint64_t counted_ = 0;
  std::vector<std::string> names_;  // of the first kNamesKept events counted
};

}  // namespace flightrec::log
