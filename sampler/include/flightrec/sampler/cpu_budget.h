#pragma once
// sampler.cpu_budget: the daemon's CPU as a share of one core, measured over a sliding window, and
// the policy that keeps it under the budget by slowing the sampler's costliest source.
//
// Two parts, both used by the sampler thread alone (no locks): CpuWindow turns cumulative
// readings taken about once a second (the process's CPU clock, each source's read time) into
// shares over the newest full window; next_rate_step decides, from those shares alone, which one
// source changes rate and to what. The decision is a pure function so it is tested without clocks.
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace flightrec::sampler {

struct CpuBudgetSettings {
  double budget = 0;  // share of one core (0.1 = 10 %); 0 turns the budget off
  std::chrono::nanoseconds window = std::chrono::seconds(10);
  std::chrono::nanoseconds check_every = std::chrono::seconds(1);
  // No source is slowed beyond this period, nor beyond the rate it was configured with.
  std::chrono::nanoseconds slowest = std::chrono::seconds(1);
  // Lowered sources are restored only while the CPU stays under this share of the budget,
  // counting what the restored source will add: the gap keeps a source from flapping.
  double restore_below = 0.7;
};

// One source as the policy sees it over the newest window.
struct SourceCost {
  double read_share = 0;          // its read time over the window, as a share of one core
  uint32_t every = 1;             // ticks between two reads now
  uint32_t configured_every = 1;  // ticks between two reads as configured
  uint32_t slowest_every = 1;     // the most ticks it may be slowed to
};

struct RateStep {
  size_t source = 0;
  uint32_t from_every = 1;
  uint32_t to_every = 1;
  [[nodiscard]] bool lowers() const noexcept { return to_every > from_every; }
};

// At most one change for a window whose CPU share was `used`:
//  - above the budget: the source costing most that is not at its slowest reads half as often
//    (twice the period, at most its slowest);
//  - under restore_below x budget: of the slowed sources whose restoring keeps the CPU under that
//    line (a source read twice as often costs about twice its read share), the cheapest reads
//    twice as often (half the period, never faster than configured);
//  - otherwise none.
[[nodiscard]] std::optional<RateStep> next_rate_step(double used, const CpuBudgetSettings& settings,
                                                     std::span<const SourceCost> sources) noexcept;

// Cumulative readings taken at checks, kept for one window; sized once, never allocates after.
class CpuWindow {
 public:
  CpuWindow(const CpuBudgetSettings& settings, size_t sources);

  // Records the readings at monotonic time `mono_ns`: the process's CPU time and each source's
  // read time, both cumulative in ns. Once the readings span a whole window, returns the process's
  // CPU over it as a share of one core and writes each source's share into `read_shares`.
  [[nodiscard]] std::optional<double> add(int64_t mono_ns, int64_t cpu_ns,
                                          std::span<const uint64_t> read_ns,
                                          std::span<double> read_shares) noexcept;

  // Forgets every reading but the newest: after a rate change the next decision waits for a whole
  // window measured at the new rate.
  void restart() noexcept;

 private:
  struct Reading {
    int64_t mono_ns = 0;
    int64_t cpu_ns = 0;
  };
  size_t sources_;
  std::vector<Reading> readings_;  // a ring of window / check_every + 1 readings
  std::vector<uint64_t> read_ns_;  // each reading's per-source read times, flat
  size_t oldest_ = 0;
  size_t count_ = 0;
};

}  // namespace flightrec::sampler
