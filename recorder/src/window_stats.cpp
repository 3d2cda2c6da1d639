#include "flightrec/recorder/window_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace flightrec::recorder {

WindowStats::WindowStats(std::vector<bool> histogram, std::chrono::nanoseconds window,
                         std::chrono::nanoseconds bucket)
    : histogram_(std::move(histogram)),
      bucket_ns_(bucket.count()),
      window_(window),
      buckets_per_signal_(buckets_for(window)),
      buckets_(histogram_.size() * buckets_per_signal_),
      histograms_(histogram_.size()) {}

size_t WindowStats::buckets_for(std::chrono::nanoseconds window) const {
  // One more bucket than the window holds: the oldest one is partly inside it.
  return static_cast<size_t>((window.count() + bucket_ns_ - 1) / bucket_ns_) + 1;
}

std::chrono::nanoseconds WindowStats::window() const {
  std::lock_guard lock(mutex_);
  return window_;
}

void WindowStats::set_window(std::chrono::nanoseconds window) {
  std::lock_guard lock(mutex_);
  const size_t per_signal = buckets_for(window);
  std::vector<Bucket> moved(histogram_.size() * per_signal);
  // The newest `per_signal` epochs fall on distinct positions; of older ones sharing a position,
  // the newest wins, and those are outside the new window anyway.
  for (size_t i = 0; i < histogram_.size(); ++i) {
    for (size_t k = 0; k < buckets_per_signal_; ++k) {
      const Bucket& b = buckets_[i * buckets_per_signal_ + k];
      if (b.count == 0) continue;
      Bucket& slot = moved[i * per_signal + static_cast<size_t>(b.epoch) % per_signal];
      if (slot.count == 0 || b.epoch > slot.epoch) slot = b;
    }
  }
  buckets_ = std::move(moved);
  buckets_per_signal_ = per_signal;
  window_ = window;
}

void WindowStats::observe(int64_t mono_ns, std::span<const double> values) {
  const int64_t epoch = mono_ns / bucket_ns_;
  std::lock_guard lock(mutex_);
  const size_t position = static_cast<size_t>(epoch) % buckets_per_signal_;
  for (size_t i = 0; i < values.size() && i < histogram_.size(); ++i) {
    const double v = values[i];
    if (std::isnan(v)) continue;
    Bucket& b = buckets_[i * buckets_per_signal_ + position];
    if (b.epoch != epoch) b = {epoch, v, v, v, 0, 0};
    b.min = std::min(b.min, v);
    b.max = std::max(b.max, v);
    b.sum_delta += v - b.first;
    ++b.count;
    if (histogram_[i]) {
      TickHistogram& h = histograms_[i];
      for (size_t k = 0; k < kRatioBounds.size(); ++k) {
        if (v <= kRatioBounds[k]) ++h.cumulative[k];
      }
      ++h.cumulative.back();
      ++h.count;
      h.sum += v;
    }
  }
}

std::vector<WindowAggregate> WindowStats::aggregates(int64_t now_mono_ns) const {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  // Buckets whose time range ends after the window's start count; the newest is the current one.
  std::vector<WindowAggregate> out(histogram_.size());
  std::lock_guard lock(mutex_);
  const int64_t newest = now_mono_ns / bucket_ns_;
  const int64_t oldest = (now_mono_ns - window_.count()) / bucket_ns_;
  for (size_t i = 0; i < out.size(); ++i) {
    WindowAggregate a{kNaN, kNaN, kNaN, 0};
    double reference = 0;
    double sum_delta = 0;
    for (size_t k = 0; k < buckets_per_signal_; ++k) {
      const Bucket& b = buckets_[i * buckets_per_signal_ + k];
      if (b.count == 0 || b.epoch < oldest || b.epoch > newest) continue;
      if (a.count == 0) reference = b.first;
      a.min = a.count == 0 ? b.min : std::min(a.min, b.min);
      a.max = a.count == 0 ? b.max : std::max(a.max, b.max);
      a.count += b.count;
      sum_delta += static_cast<double>(b.count) * (b.first - reference) + b.sum_delta;
    }
    if (a.count > 0) a.mean = reference + sum_delta / static_cast<double>(a.count);
    out[i] = a;
  }
  return out;
}

std::vector<TickHistogram> WindowStats::histograms() const {
  std::lock_guard lock(mutex_);
  return histograms_;
}

}  // namespace flightrec::recorder
