#include "flightrec/viewer/key_signals.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "synthetic_recording.h"

namespace flightrec::viewer {
namespace {

using testing::kRateNs;
using testing::kStartNs;
using testing::synthetic_recording;

const Chart& chart(const SignalWindow& window, std::string_view id) {
  const auto it = std::find_if(window.charts.begin(), window.charts.end(),
                               [id](const Chart& c) { return c.id == id; });
  REQUIRE(it != window.charts.end());
  return *it;
}

const Line& line(const Chart& c, std::string_view label) {
  const auto it = std::find_if(c.lines.begin(), c.lines.end(),
                               [label](const Line& l) { return l.label == label; });
  INFO("chart " << c.id);
  REQUIRE(it != c.lines.end());
  return *it;
}

std::vector<std::string> labels(const Chart& c) {
  std::vector<std::string> out;
  for (const auto& l : c.lines) out.push_back(l.label);
  return out;
}

size_t index_at(const SignalWindow& window, int64_t ms) {
  const auto at =
      std::lower_bound(window.times_ns.begin(), window.times_ns.end(), kStartNs + ms * kRateNs);
  return static_cast<size_t>(at - window.times_ns.begin());
}

TEST_CASE("shouldKeepEveryTickOfAMinuteAtOneMillisecond") {
  const auto rec = synthetic_recording(60'000, 30'000);
  const auto window = key_signals(rec.metadata, rec.blocks);
  CHECK(window.frames == 60'000);
  CHECK(window.bucket_ticks == 1);
  REQUIRE(window.times_ns.size() == 60'000);
  CHECK(window.times_ns.front() == kStartNs);
  CHECK(window.times_ns.back() == kStartNs + 59'999 * kRateNs);
  for (const auto& c : window.charts) {
    for (const auto& l : c.lines) CHECK(l.values.size() == 60'000);
  }
}

TEST_CASE("shouldGroupTheRecordersSignalsIntoCharts") {
  const auto rec = synthetic_recording(2'000, 1'000);
  const auto window = key_signals(rec.metadata, rec.blocks);
  std::vector<std::string> ids;
  for (const auto& c : window.charts) ids.push_back(c.id);
  CHECK(ids == std::vector<std::string>{"cpu", "memory", "pressure", "disk", "network"});
  CHECK(labels(chart(window, "cpu")) == std::vector<std::string>{"total", "cpu 0", "cpu 1"});
  CHECK(labels(chart(window, "pressure")) ==
        std::vector<std::string>{"cpu some", "memory some", "io some"});
  CHECK(chart(window, "memory").unit == "bytes");
  CHECK(chart(window, "disk").unit == "bytes/s");
}

TEST_CASE("shouldNameDeviceLinesAndDropIdleDevices") {
  const auto rec = synthetic_recording(2'000, 1'000);
  const auto window = key_signals(rec.metadata, rec.blocks);
  // loop0 never moves; sda reads every 50 ms and writes every 200 ms.
  CHECK(labels(chart(window, "disk")) == std::vector<std::string>{"sda read", "sda write"});
  CHECK(labels(chart(window, "network")) == std::vector<std::string>{"eth0 rx", "eth0 tx"});
  // 800 bytes per 1 ms tick.
  CHECK(line(chart(window, "network"), "eth0 tx").values[500] == Approx(800'000.0));
}

TEST_CASE("shouldShowTheBurstInCpuAndPressure") {
  const auto rec = synthetic_recording(2'000, 1'000);
  const auto window = key_signals(rec.metadata, rec.blocks);
  const auto& total = line(chart(window, "cpu"), "total").values;
  CHECK(total[index_at(window, 900)] == Approx(0.1).margin(0.06));
  CHECK(total[index_at(window, 1'200)] == Approx(1.0));
  const auto& cpu0 = line(chart(window, "cpu"), "cpu 0").values;
  CHECK(cpu0[index_at(window, 1'300)] == Approx(1.0));
  CHECK(line(chart(window, "pressure"), "cpu some").values[index_at(window, 1'200)] == Approx(0.6));
  // Used memory = 8 GiB - (6 GiB - 4 KiB per ms).
  CHECK(line(chart(window, "memory"), "used").values[index_at(window, 100)] ==
        Approx(2.0 * (1 << 30) + 100 * 4096));
}

TEST_CASE("shouldWarmUpBeforeTheRangeSoItsFirstPointsHaveValues") {
  const auto rec = synthetic_recording(2'000, 1'000);
  const store::TimeRange range{kStartNs + 500 * kRateNs, kStartNs + 1'500 * kRateNs};
  const auto window = key_signals(rec.metadata, rec.blocks, range);
  CHECK(window.frames == 1'001);
  REQUIRE(window.times_ns.size() == 1'001);
  CHECK(window.times_ns.front() == range.from_real_ns);
  CHECK_FALSE(std::isnan(line(chart(window, "cpu"), "cpu 0").values.front()));
  CHECK_FALSE(std::isnan(line(chart(window, "network"), "eth0 rx").values.front()));
}

TEST_CASE("shouldDownsampleBeyondTheLimitKeepingEachBucketsMaximum") {
  const auto rec = synthetic_recording(10'000, 5'000);
  // 11 lines once idle loop0 is dropped: 1100 values allow 100 points per line.
  const auto window = key_signals(rec.metadata, rec.blocks, {}, 1'100);
  CHECK(window.bucket_ticks == 100);
  REQUIRE(window.times_ns.size() == 100);
  CHECK(window.times_ns[1] - window.times_ns[0] == 100 * kRateNs);
  // io some stalls 5 ms out of every 100: each bucket holds one stall, so every maximum is 30 %.
  const auto& io = line(chart(window, "pressure"), "io some").values;
  CHECK(std::all_of(io.begin() + 1, io.end(), [](double v) { return v == Approx(0.3); }));
}

TEST_CASE("shouldNotLetDroppedIdleLinesHalveTheResolution") {
  const auto rec = synthetic_recording(60'000, 30'000);
  // Room for exactly the 11 shipped lines at full resolution; counting idle loop0's two lines
  // as well would need buckets of 2 ticks.
  const auto window = key_signals(rec.metadata, rec.blocks, {}, 11 * 60'000);
  CHECK(window.bucket_ticks == 1);
  CHECK(window.times_ns.size() == 60'000);
  size_t lines = 0;
  for (const auto& c : window.charts) lines += c.lines.size();
  CHECK(lines == 11);
  CHECK(labels(chart(window, "disk")) == std::vector<std::string>{"sda read", "sda write"});
}

TEST_CASE("shouldKeepTheFirstLineOfAChartWhoseDevicesAreAllIdle") {
  const auto rec = synthetic_recording(2'000, 1'000);
  // Within these ticks sda neither reads nor writes (it does every 50 and 200 ms), like loop0.
  const store::TimeRange quiet{kStartNs + 10 * kRateNs, kStartNs + 20 * kRateNs};
  const auto window = key_signals(rec.metadata, rec.blocks, quiet);
  CHECK(labels(chart(window, "disk")) == std::vector<std::string>{"loop0 read"});
  CHECK(labels(chart(window, "network")) == std::vector<std::string>{"eth0 rx", "eth0 tx"});
}

TEST_CASE("shouldGiveNoChartsForAnEmptyRecording") {
  const auto rec = synthetic_recording(0, 0);
  const auto window = key_signals(rec.metadata, rec.blocks);
  CHECK(window.frames == 0);
  CHECK(window.times_ns.empty());
  for (const auto& c : window.charts) {
    for (const auto& l : c.lines) CHECK(l.values.empty());
  }
}

}  // namespace
}  // namespace flightrec::viewer
