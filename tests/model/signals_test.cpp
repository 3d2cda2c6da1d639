#include "flightrec/model/signals.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "sampler/allocation_counter.h"

using namespace flightrec;
using namespace flightrec::model;
using sampler::kAbsent;
using sampler::SeriesDesc;
using sampler::SeriesKind;
using namespace std::chrono_literals;

namespace {

SeriesDesc series(std::string name, std::vector<std::pair<std::string, std::string>> labels,
                  double scale, SeriesKind kind = SeriesKind::counter) {
  SeriesDesc s;
  s.name = std::move(name);
  s.labels = std::move(labels);
  s.scale = scale;
  s.kind = kind;
  return s;
}

// One CPU in /proc/stat (busy modes user and system, plus idle), the root cgroup's usage, memory
// and one PSI counter: the shape the real sources give, at USER_HZ 100.
sampler::Schema schema() {
  return {
      series("cpu_seconds_total", {{"cpu", "0"}, {"mode", "user"}}, 0.01),    // 0
      series("cpu_seconds_total", {{"cpu", "0"}, {"mode", "system"}}, 0.01),  // 1
      series("cpu_seconds_total", {{"cpu", "0"}, {"mode", "idle"}}, 0.01),    // 2
      series("cgroup_cpu_usage_seconds_total", {}, 1e-6),                     // 3
      series("memory_total_bytes", {}, 1, SeriesKind::gauge),                 // 4
      series("memory_available_bytes", {}, 1, SeriesKind::gauge),             // 5
      series("pressure_some_seconds_total", {{"resource", "io"}}, 1e-6),      // 6
  };
}

size_t index_of(const SignalDeriver& d, const std::string& name,
                const std::pair<std::string, std::string>& label) {
  const auto& s = d.signals();
  for (size_t i = 0; i < s.size(); ++i) {
    for (const auto& l : s[i].desc.labels) {
      if (s[i].desc.name == name && l == label) return i;
    }
    if (s[i].desc.name == name && label.first.empty()) return i;
  }
  FAIL("no signal " << name);
  return 0;
}

struct Feed {
  SignalDeriver deriver{schema(), 1ms};
  std::vector<double> out = std::vector<double>(deriver.signals().size());
  uint64_t tick = 0;
  void frame(std::vector<int64_t> values) {
    deriver.derive({tick, static_cast<int64_t>(tick) * 1'000'000, 0}, values, out);
    ++tick;
  }
};

}  // namespace

TEST_CASE("Signals found in the schema: CPU total and per CPU, memory, PSI", "[signals]") {
  SignalDeriver d(schema(), 1ms);
  std::vector<std::string> names;
  for (const auto& s : d.signals()) names.push_back(s.desc.name);
  CHECK(names == std::vector<std::string>{"cpu_busy_ratio", "cpu_busy_ratio", "memory_used_bytes",
                                          "memory_used_ratio", "pressure_stall_ratio"});
  CHECK(d.signals()[0].desc.labels.front().second == "total");
}

TEST_CASE("The all-CPU busy ratio is the cgroup usage rate over a 20 ms window", "[signals]") {
  Feed f;
  const size_t total = index_of(f.deriver, "cpu_busy_ratio", {"cpu", "total"});
  // usage moves 4 ms every 8 ms: half a CPU busy.
  for (int t = 0; t <= 40; ++t) f.frame({0, 0, 0, (t / 8) * 4000, 100, 50, 0});
  CHECK(f.out[total] == Approx(0.5).margin(0.11));
}

TEST_CASE("Per-CPU busy ratios come from /proc/stat over 100 ms and are clamped to 1",
          "[signals]") {
  Feed f;
  const size_t cpu0 = index_of(f.deriver, "cpu_busy_ratio", {"cpu", "0"});
  // 3 busy ticks of 10 ms in each 100 ms: 30 % busy.
  for (int t = 0; t <= 300; ++t) f.frame({t / 100 * 2, t / 100, 0, 0, 100, 50, 0});
  CHECK(f.out[cpu0] == Approx(0.3).margin(0.01));
  // A burst the 10 ms steps overstate (12 ticks in 100 ms) reads as fully busy, not 1.2.
  for (int t = 0; t <= 100; ++t) f.frame({600 + (t * 12) / 100, 300, 0, 0, 100, 50, 0});
  CHECK(f.out[cpu0] == 1.0);
}

TEST_CASE("Memory used is total minus available, and its ratio of total", "[signals]") {
  Feed f;
  f.frame({0, 0, 0, 0, 8'000, 2'000, 0});
  CHECK(f.out[index_of(f.deriver, "memory_used_bytes", {})] == 6'000);
  CHECK(f.out[index_of(f.deriver, "memory_used_ratio", {})] == Approx(0.75));
}

TEST_CASE("PSI stall ratio is the per-tick share of stalled time", "[signals]") {
  Feed f;
  const size_t io = index_of(f.deriver, "pressure_stall_ratio", {"resource", "io"});
  f.frame({0, 0, 0, 0, 1, 1, 1000});
  CHECK(std::isnan(f.out[io]));  // one frame: no rate yet
  f.frame({0, 0, 0, 0, 1, 1, 1250});
  CHECK(f.out[io] == Approx(0.25));
}

TEST_CASE("Absent inputs and counter resets give no value instead of a wrong one", "[signals]") {
  Feed f;
  const size_t io = index_of(f.deriver, "pressure_stall_ratio", {"resource", "io"});
  f.frame({0, 0, 0, 0, 1, 1, 5000});
  f.frame({0, 0, 0, 0, 1, 1, kAbsent});
  CHECK(std::isnan(f.out[io]));
  CHECK(std::isnan(f.out[index_of(f.deriver, "memory_used_ratio", {})]) == false);
  f.frame({0, 0, 0, 0, 1, 1, 6000});
  CHECK(std::isnan(f.out[io]));     // history restarted after the gap
  f.frame({0, 0, 0, 0, 1, 1, 10});  // went backwards: a reset
  CHECK(std::isnan(f.out[io]));
  f.frame({0, 0, 0, 0, 1, 1, 510});
  CHECK(f.out[io] == Approx(0.5));
  f.frame({0, 0, 0, 0, kAbsent, 1, 510});
  CHECK(std::isnan(f.out[index_of(f.deriver, "memory_used_bytes", {})]));
}

TEST_CASE("A recording's metadata gives the same signals, device rates labelled with the device",
          "[signals]") {
  recording::Metadata meta;
  meta.rate_ns = 1'000'000;
  for (const auto& s : schema()) {
    meta.series.push_back({s.name, s.labels, s.unit, s.kind, s.scale, s.source});
  }
  meta.series.push_back(
      {"disk_read_bytes_total", {{"device", "sda"}}, "bytes", SeriesKind::counter, 1.0, ""});
  const SignalDeriver live(schema(), 1ms);
  const SignalDeriver stored(meta);
  REQUIRE(stored.signals().size() == live.signals().size() + 1);
  for (size_t i = 0; i < live.signals().size(); ++i) {
    CHECK(stored.signals()[i].desc.name == live.signals()[i].desc.name);
    CHECK(stored.signals()[i].desc.labels == live.signals()[i].desc.labels);
    CHECK(stored.window_ticks(i) == live.window_ticks(i));
  }
  const auto& disk = stored.signals().back().desc;
  CHECK(disk.name == signal_names::kDiskReadBytesPerSecond);
  CHECK(disk.labels == std::vector<std::pair<std::string, std::string>>{{"device", "sda"}});
}

TEST_CASE("A signal between two stored frames equals what the trailing window derived live",
          "[signals]") {
  Feed f;
  const size_t total = index_of(f.deriver, "cpu_busy_ratio", {"cpu", "total"});
  const size_t cpu0 = index_of(f.deriver, "cpu_busy_ratio", {"cpu", "0"});
  const size_t used = index_of(f.deriver, "memory_used_bytes", {});
  std::vector<std::vector<int64_t>> frames;
  for (int t = 0; t <= 150; ++t) {
    frames.push_back({t / 10 * 3, t / 20, 0, t * 700 + (t % 7) * 90, 100, 40 + t % 3, 0});
    f.frame(frames.back());
  }
  const auto at = [&](size_t tick) {
    return FrameView{static_cast<int64_t>(tick) * 1'000'000, frames[tick]};
  };
  const size_t now = 150;
  CHECK(f.deriver.window_ticks(total) == 20);
  CHECK(f.deriver.window_ticks(used) == 0);
  CHECK(f.deriver.between(total, at(now - 20), at(now)) == f.out[total]);
  CHECK(f.deriver.between(cpu0, at(now - 100), at(now)) == f.out[cpu0]);
  CHECK(f.deriver.between(used, at(now), at(now)) == f.out[used]);
  // Frames out of order (a counter that went backwards, no time passed) give no value.
  CHECK(std::isnan(f.deriver.between(total, at(now), at(now - 20))));
}

TEST_CASE("Deriving a frame never allocates, whatever its values", "[signals][alloc]") {
  Feed f;
  std::vector<std::vector<int64_t>> frames;
  for (int t = 0; t < 300; ++t) {
    const int64_t psi = t % 50 == 7 ? kAbsent : t * 100 - (t % 90 == 0 ? 5000 : 0);
    frames.push_back({t / 10, t / 20, t / 30, t * 700, 100, 40, psi});
  }
  flightrec::testing::CountAllocations allocations;
  for (const auto& frame : frames) {
    f.deriver.derive({f.tick, static_cast<int64_t>(f.tick) * 1'000'000, 0}, frame, f.out);
    ++f.tick;
  }
  CHECK(allocations.count() == 0);
  CHECK_FALSE(std::isnan(f.out[index_of(f.deriver, "cpu_busy_ratio", {"cpu", "total"})]));
}
