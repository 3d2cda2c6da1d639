#pragma once
// Spike-preserving export aggregates: for every signal, the min, max and mean of its per-tick
// values over the last `window` (sliding: each reader gets the window ending at its own read, so
// several Prometheus servers scraping at different moments all see correct values), and a
// cumulative histogram of the per-tick values of ratio signals, so PromQL can ask "how long was CPU
// above 0.9" over any range with rate(), whatever the scrape interval.
//
// Values are kept in time buckets (default 100 ms) of min/max/sum/count; a window is the buckets
// that end after now - window, so its edge is exact to one bucket. The recorder thread writes; any
// thread reads; a mutex guards both and is held only for a copy. The window can change while it
// runs (export.window is a live setting): the buckets it holds are kept, as far as the new window
// reaches, so a spike seen before the change is still in the aggregates after it.
#include <array>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

namespace flightrec::recorder {

// Upper bounds of the per-tick histograms of ratio signals; +Inf is implied.
inline constexpr std::array<double, 8> kRatioBounds{0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 1.0};

struct WindowAggregate {
  double min = 0;
  double max = 0;
  double mean = 0;
  uint64_t count = 0;  // ticks with a value in the window; min/max/mean are NaN when 0
};

struct TickHistogram {
  std::array<uint64_t, kRatioBounds.size() + 1> cumulative{};  // last one is +Inf == count
  uint64_t count = 0;
  double sum = 0;
};

class WindowStats {
 public:
  // `histogram[i]` says whether signal i keeps a histogram.
  WindowStats(std::vector<bool> histogram, std::chrono::nanoseconds window,
              std::chrono::nanoseconds bucket = std::chrono::milliseconds(100));

  [[nodiscard]] std::chrono::nanoseconds window() const;
  // Any thread: aggregates from now on span `window`.
  void set_window(std::chrono::nanoseconds window);
  [[nodiscard]] size_t signals() const noexcept { return histogram_.size(); }

  // Recorder thread: one tick's values (NaN = no value, skipped).
  void observe(int64_t mono_ns, std::span<const double> values);

  // Any thread: aggregates over the window ending at `now_mono_ns`.
  [[nodiscard]] std::vector<WindowAggregate> aggregates(int64_t now_mono_ns) const;
  // Any thread: histograms since start, one per signal (empty for signals without one).
  [[nodiscard]] std::vector<TickHistogram> histograms() const;

 private:
  struct Bucket {
    int64_t epoch = -1;  // mono_ns / bucket_ns of the values it holds
    double min = 0;
    double max = 0;
    double first = 0;      // sums are kept relative to the first value, so a steady signal's
    double sum_delta = 0;  // mean is exactly its value and large values keep their precision
    uint64_t count = 0;
  };

  [[nodiscard]] size_t buckets_for(std::chrono::nanoseconds window) const;

  std::vector<bool> histogram_;
  int64_t bucket_ns_;
  mutable std::mutex mutex_;
  std::chrono::nanoseconds window_;  // the rest is guarded by mutex_
  size_t buckets_per_signal_;
  std::vector<Bucket> buckets_;  // signal-major: signal * buckets_per_signal_ + epoch % n
  std::vector<TickHistogram> histograms_;
};

}  // namespace flightrec::recorder
