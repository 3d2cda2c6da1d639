#include "flightrec/common/limited_warning.h"

namespace flightrec::log {

LimitedWarning::~LimitedWarning() {
  const std::lock_guard lock(mutex_);
  if (counted_ > 0) write_counted(Clock::now());
}

void LimitedWarning::note(std::string_view name, Clock::time_point now) { note(name, 1, now); }

void LimitedWarning::note(std::string_view name, uint64_t events, Clock::time_point now) {
  const std::lock_guard lock(mutex_);
  counted_ += events;
  if (names_.size() < kNamesKept) names_.emplace_back(name);
  if (!last_line_ || now - *last_line_ >= interval_) write_counted(now);
}

std::optional<LimitedWarning::Clock::time_point> LimitedWarning::flush(Clock::time_point now) {
  const std::lock_guard lock(mutex_);
  if (counted_ == 0) return std::nullopt;
  if (now - *last_line_ < interval_) return *last_line_ + interval_;
  write_counted(now);
  return std::nullopt;
}

void LimitedWarning::write_counted(Clock::time_point now) {
  std::string names;
  for (const std::string& name : names_) names += (names.empty() ? "" : ", ") + name;
  if (counted_ > names_.size()) names += ", ...";
  write(level_, msg_, {{"count", std::to_string(counted_)}, {"names", names}});
  last_line_ = now;
  counted_ = 0;
  names_.clear();
}

}  // namespace flightrec::log
