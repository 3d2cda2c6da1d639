#include "flightrec/sampler/cpu_budget.h"

#include <algorithm>

namespace flightrec::sampler {
namespace {

std::optional<RateStep> lower_costliest(std::span<const SourceCost> sources) noexcept {
  std::optional<RateStep> step;
  double costliest = -1;
  for (size_t i = 0; i < sources.size(); ++i) {
    const SourceCost& s = sources[i];
    if (s.every >= s.slowest_every || s.read_share <= costliest) continue;
    costliest = s.read_share;
    // Doubling in 64 bits: a period near UINT32_MAX ticks must not wrap to a faster one.
    const uint64_t doubled = uint64_t{s.every} * 2;
    step =
        RateStep{.source = i,
                 .from_every = s.every,
                 .to_every = static_cast<uint32_t>(std::min<uint64_t>(doubled, s.slowest_every))};
  }
  return step;
}

std::optional<RateStep> restore_cheapest(double used, double line,
                                         std::span<const SourceCost> sources) noexcept {
  std::optional<RateStep> step;
  double cheapest = 0;
  for (size_t i = 0; i < sources.size(); ++i) {
    const SourceCost& s = sources[i];
    if (s.every <= s.configured_every) continue;
    // Read twice as often, the source costs about twice what it did: its share again on top.
    if (used + s.read_share >= line) continue;
    if (step && s.read_share >= cheapest) continue;
    cheapest = s.read_share;
    step = RateStep{
        .source = i, .from_every = s.every, .to_every = std::max(s.every / 2, s.configured_every)};
  }
  return step;
}

}  // namespace

std::optional<RateStep> next_rate_step(double used, const CpuBudgetSettings& settings,
                                       std::span<const SourceCost> sources) noexcept {
  if (settings.budget <= 0) return std::nullopt;
  if (used > settings.budget) return lower_costliest(sources);
  const double line = settings.restore_below * settings.budget;
  if (used < line) return restore_cheapest(used, line, sources);
  return std::nullopt;
}

CpuWindow::CpuWindow(const CpuBudgetSettings& settings, size_t sources)
    : sources_(sources),
      readings_(static_cast<size_t>(std::max<int64_t>(settings.window / settings.check_every, 1)) +
                1),
      read_ns_(readings_.size() * sources) {}

std::optional<double> CpuWindow::add(int64_t mono_ns, int64_t cpu_ns,
                                     std::span<const uint64_t> read_ns,
                                     std::span<double> read_shares) noexcept {
  const size_t slot = (oldest_ + count_) % readings_.size();
  readings_[slot] = {mono_ns, cpu_ns};
  std::copy(read_ns.begin(), read_ns.end(),
            read_ns_.begin() + static_cast<ptrdiff_t>(slot * sources_));
  if (++count_ < readings_.size()) return std::nullopt;

  const Reading& first = readings_[oldest_];
  const auto span_ns = static_cast<double>(mono_ns - first.mono_ns);
  const uint64_t* first_read = read_ns_.data() + oldest_ * sources_;
  for (size_t i = 0; i < sources_; ++i) {
    read_shares[i] = span_ns > 0 ? static_cast<double>(read_ns[i] - first_read[i]) / span_ns : 0;
  }
  const double used = span_ns > 0 ? static_cast<double>(cpu_ns - first.cpu_ns) / span_ns : 0;
  // The window slides: the oldest reading leaves, the next check brings the window full again.
  oldest_ = (oldest_ + 1) % readings_.size();
  --count_;
  return used;
}

void CpuWindow::restart() noexcept {
  if (count_ == 0) return;
  oldest_ = (oldest_ + count_ - 1) % readings_.size();
  count_ = 1;
}

}  // namespace flightrec::sampler
