#include "flightrec/recorder/window_stats.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

using namespace flightrec::recorder;
using namespace std::chrono_literals;

namespace {
constexpr int64_t kMs = 1'000'000;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

TEST_CASE("Window aggregates keep a one-tick spike as the max while the mean stays low",
          "[window]") {
  WindowStats stats({true}, 15s);
  for (int t = 0; t < 10000; ++t) {
    const double v = (t >= 5000 && t < 5050) ? 1.0 : 0.02;  // a 50 ms burst in 10 s
    stats.observe(1000 * kMs + t * kMs, std::vector<double>{v});
  }
  const auto a = stats.aggregates(1000 * kMs + 10000 * kMs).at(0);
  CHECK(a.count == 10000);
  CHECK(a.max == 1.0);
  CHECK(a.min == 0.02);
  CHECK(a.mean == Approx((50 * 1.0 + 9950 * 0.02) / 10000));
}

TEST_CASE("Window aggregates forget values older than the window", "[window]") {
  WindowStats stats({false}, 1s, 100ms);
  stats.observe(10'000 * kMs, std::vector<double>{9.0});  // old spike
  for (int t = 0; t < 1000; ++t) stats.observe(12'000 * kMs + t * kMs, std::vector<double>{1.0});
  const auto a = stats.aggregates(13'000 * kMs).at(0);
  CHECK(a.max == 1.0);
  CHECK(a.count <= 1000);
  CHECK(a.count >= 900);
  // Long after the last value, nothing is left in the window.
  CHECK(stats.aggregates(20'000 * kMs).at(0).count == 0);
  CHECK(std::isnan(stats.aggregates(20'000 * kMs).at(0).max));
}

TEST_CASE("Readers at different moments each get the window ending at their read", "[window]") {
  WindowStats stats({false}, 2s, 100ms);
  auto observe_until = [&, t = 0](int end) mutable {
    for (; t < end; ++t) stats.observe(t * kMs, std::vector<double>{t < 1000 ? 5.0 : 1.0});
  };
  observe_until(2000);
  CHECK(stats.aggregates(2000 * kMs).at(0).max == 5.0);  // window [0 s, 2 s] holds the fives
  observe_until(2500);
  CHECK(stats.aggregates(2500 * kMs).at(0).max == 5.0);  // [0.5 s, 2.5 s] still does
  observe_until(4000);
  CHECK(stats.aggregates(3999 * kMs).at(0).max == 1.0);  // [2 s, 4 s] does not
}

TEST_CASE("NaN values are skipped, not aggregated", "[window]") {
  WindowStats stats({true, false}, 15s);
  stats.observe(kMs, std::vector<double>{kNaN, 3.0});
  stats.observe(2 * kMs, std::vector<double>{0.5, kNaN});
  const auto a = stats.aggregates(3 * kMs);
  CHECK(a[0].count == 1);
  CHECK(a[0].max == 0.5);
  CHECK(a[1].count == 1);
  CHECK(a[1].min == 3.0);
  CHECK(stats.histograms()[0].count == 1);
}

TEST_CASE("Per-tick histograms count ticks cumulatively per bound", "[window][histogram]") {
  WindowStats stats({true, false}, 15s);
  const std::vector<double> values{0.05, 0.3, 0.92, 0.92, 1.0};
  for (size_t i = 0; i < values.size(); ++i) {
    stats.observe(static_cast<int64_t>(i) * kMs, std::vector<double>{values[i], 7.0});
  }
  const auto h = stats.histograms();
  CHECK(h[0].count == 5);
  CHECK(h[0].sum == Approx(3.19));
  CHECK(h[0].cumulative[0] == 1);  // <= 0.1
  CHECK(h[0].cumulative[1] == 1);  // <= 0.25
  CHECK(h[0].cumulative[2] == 2);  // <= 0.5
  CHECK(h[0].cumulative[4] == 2);  // <= 0.9
  CHECK(h[0].cumulative[5] == 4);  // <= 0.95
  CHECK(h[0].cumulative[7] == 5);  // <= 1.0
  CHECK(h[0].cumulative[8] == 5);  // +Inf
  CHECK(h[1].count == 0);          // no histogram for this signal
}

TEST_CASE("A steady signal's mean is exactly its value, however many ticks", "[window]") {
  WindowStats stats({false}, 15s);
  const double v = 0.01915225401039666;
  for (int t = 0; t < 7777; ++t) stats.observe(t * kMs, std::vector<double>{v});
  CHECK(stats.aggregates(7777 * kMs).at(0).mean == v);
}

TEST_CASE("A new window keeps the spikes it still reaches and drops the ones it does not",
          "[window]") {
  WindowStats stats({false}, 10s, 100ms);
  auto steady = [&](int from_ms, int to_ms) {
    for (int t = from_ms; t < to_ms; ++t) stats.observe(t * kMs, std::vector<double>{1.0});
  };
  steady(100'000, 102'000);
  stats.observe(102'000 * kMs, std::vector<double>{7.0});  // a spike 8 s before the reads
  steady(102'001, 108'000);
  stats.observe(108'000 * kMs, std::vector<double>{5.0});  // and one 2 s before
  steady(108'001, 110'000);
  REQUIRE(stats.aggregates(110'000 * kMs).at(0).max == 7.0);

  stats.set_window(15s);  // longer: everything held stays, and the window grows from there
  CHECK(stats.window() == 15s);
  CHECK(stats.aggregates(110'000 * kMs).at(0).max == 7.0);
  CHECK(stats.aggregates(110'000 * kMs).at(0).count == 10'000);
  steady(110'000, 114'000);
  CHECK(stats.aggregates(114'000 * kMs).at(0).max == 7.0);  // 12 s old: beyond 10 s, within 15

  stats.set_window(5s);  // shorter: both spikes (12 s and 6 s old) are outside it
  CHECK(stats.aggregates(114'000 * kMs).at(0).max == 1.0);
  stats.set_window(7s);  // what a shorter window dropped stays dropped: the 6 s old spike is gone
  CHECK(stats.aggregates(114'000 * kMs).at(0).max == 1.0);
  steady(114'000, 116'000);
  stats.observe(116'000 * kMs, std::vector<double>{3.0});
  steady(116'001, 117'000);
  stats.set_window(3s);  // a 1 s old spike survives shrinking
  CHECK(stats.aggregates(117'000 * kMs).at(0).max == 3.0);
  CHECK(stats.aggregates(117'000 * kMs).at(0).count >= 2'900);
}
