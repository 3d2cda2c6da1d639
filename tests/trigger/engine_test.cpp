#include "flightrec/trigger/engine.h"

#include <catch2/catch.hpp>

#include "engine_fixture.h"
#include "sampler/allocation_counter.h"

using namespace flightrec;
using namespace flightrec::trigger;
using namespace flightrec::trigger::testing;
using namespace std::chrono_literals;
using config::Comparison;
using config::Duration;

namespace {

// Plays frames at 1 ms through an engine and records on which ticks each rule fired.
struct Feed {
  Host host;
  TriggerEngine engine;
  std::vector<double> derived = std::vector<double>(kDerived, 0.0);
  std::vector<int64_t> raw = std::vector<int64_t>(kRaw, 0);
  uint64_t tick = 0;

  explicit Feed(std::vector<config::TriggerRule> rules)
      : engine(std::move(rules), host.signals, host.schema, 1ms) {}

  std::vector<Firing> step() {
    sampler::FrameHeader header{tick, static_cast<int64_t>(tick) * 1'000'000,
                                1'700'000'000'000'000'000 + static_cast<int64_t>(tick) * 1'000'000};
    ++tick;
    auto firings = engine.evaluate(header, raw, derived);
    return {firings.begin(), firings.end()};
  }
  // Runs `ticks` frames with derived[index] = value; returns the ticks on which anything fired.
  std::vector<uint64_t> run(size_t index, double value, size_t ticks) {
    std::vector<uint64_t> fired;
    for (size_t i = 0; i < ticks; ++i) {
      derived[index] = value;
      uint64_t now = tick;
      if (!step().empty()) fired.push_back(now);
    }
    return fired;
  }
};

config::TriggerRule cpu_hot(Duration hold = 0ms, Duration cooldown = 60s) {
  auto r = rule("cpu_hot", "cpu_busy_ratio{cpu=\"total\"}", Comparison::greater, 0.8);
  r.hold = hold;
  r.cooldown = cooldown;
  return r;
}

}  // namespace

TEST_CASE("a selector with exact labels resolves to one signal", "[engine][selector]") {
  Feed feed({cpu_hot()});
  REQUIRE(feed.engine.match_count(0) == 1);
  CHECK(feed.engine.series_name(0, 0) == "cpu_busy_ratio{cpu=\"total\"}");
}

TEST_CASE("a selector without labels matches every series and says which fired",
          "[engine][selector]") {
  Feed feed({rule("any_cpu", "cpu_busy_ratio", Comparison::greater, 0.8)});
  REQUIRE(feed.engine.match_count(0) == 3);
  feed.derived[kCpu1] = 0.95;
  auto firings = feed.step();
  REQUIRE(firings.size() == 1);
  CHECK(firings[0].value == Approx(0.95));
  CHECK(feed.engine.series_name(0, firings[0].match) == "cpu_busy_ratio{cpu=\"1\"}");
}

TEST_CASE("a keyed label selects the device bound at run time", "[engine][selector]") {
  Feed feed(
      {rule("sdb_busy", "disk_read_bytes_per_second{device=\"sdb\"}", Comparison::greater, 1e6)});
  REQUIRE(feed.engine.match_count(0) == 2);  // either slot may be bound to sdb later
  feed.derived[kDiskRead0] = 5e6;
  feed.derived[kDiskRead1] = 5e6;
  CHECK(feed.step().empty());  // nothing bound yet
  feed.host.disks->bind("sda");
  CHECK(feed.step().empty());  // slot 0 is sda, not sdb
  feed.host.disks->bind("sdb");
  auto firings = feed.step();
  REQUIRE(firings.size() == 1);
  CHECK(feed.engine.series_name(0, firings[0].match) ==
        "disk_read_bytes_per_second{device=\"sdb\"}");
}

TEST_CASE("a raw series name is used when no signal has it, in base units", "[engine][selector]") {
  Feed feed({rule("low_memory", "memory_available_bytes", Comparison::less, 1e9)});
  REQUIRE(feed.engine.match_count(0) == 1);
  feed.raw[kMemAvailable] = 2'000'000;  // KiB: ~2 GB
  CHECK(feed.step().empty());
  feed.raw[kMemAvailable] = 500'000;  // ~0.5 GB
  auto firings = feed.step();
  REQUIRE(firings.size() == 1);
  CHECK(firings[0].value == Approx(512e6));
  feed.raw[kMemAvailable] = sampler::kAbsent;
  CHECK(feed.step().empty());
}

TEST_CASE("an unknown signal or label stops start-up naming the rule", "[engine][selector]") {
  Host host;
  auto typo = rule("hot", "cpu_bussy_ratio", Comparison::greater, 0.5);
  typo.line = 12;
  CHECK_THROWS_WITH(TriggerEngine({typo}, host.signals, host.schema, 1ms),
                    "trigger \"hot\" (line 12): unknown signal \"cpu_bussy_ratio\" (not a signal "
                    "or series on this host; did you mean \"cpu_busy_ratio\"?)");
  // Raw series are names too; a name near none of them says where the names are listed.
  CHECK_THROWS_WITH(TriggerEngine({rule("low", "memory_avialable_bytes", Comparison::less, 1)},
                                  host.signals, host.schema, 1ms),
                    Catch::EndsWith("(not a signal or series on this host; did you mean "
                                    "\"memory_available_bytes\"?)"));
  CHECK_THROWS_WITH(TriggerEngine({rule("odd", "entropy_bits", Comparison::less, 1)}, host.signals,
                                  host.schema, 1ms),
                    Catch::EndsWith("(not a signal or series on this host; see docs/TRIGGERS.md)"));
  CHECK_THROWS_WITH(
      TriggerEngine({rule("cpu9", "cpu_busy_ratio{cpu=\"9\"}", Comparison::greater, 0.5)},
                    host.signals, host.schema, 1ms),
      "trigger \"cpu9\": no series of \"cpu_busy_ratio\" has the labels in "
      "cpu_busy_ratio{cpu=\"9\"}");
}

TEST_CASE("for=50ms: 49 ms of holding does not fire, 50 ms does", "[engine][for]") {
  Feed feed({cpu_hot(50ms)});
  CHECK(feed.run(kCpuTotal, 0.9, 49).empty());  // ticks 0..48 hold: 49 ms
  CHECK(feed.run(kCpuTotal, 0.1, 1).empty());   // the condition breaks: the clock restarts
  CHECK(feed.run(kCpuTotal, 0.9, 49).empty());
  CHECK(feed.run(kCpuTotal, 0.9, 1) == std::vector<uint64_t>{99});  // the 50th tick holding
}

TEST_CASE("for=0 fires on the first tick the condition holds", "[engine][for]") {
  Feed feed({cpu_hot(0ms)});
  CHECK(feed.run(kCpuTotal, 0.5, 3).empty());
  CHECK(feed.run(kCpuTotal, 0.81, 1) == std::vector<uint64_t>{3});
}

TEST_CASE("a holding condition fires once per cooldown", "[engine][cooldown]") {
  Feed feed({cpu_hot(0ms, 100ms)});
  CHECK(feed.run(kCpuTotal, 0.9, 250) == std::vector<uint64_t>{0, 100, 200});
}

TEST_CASE("a new crossing during the cooldown does not fire", "[engine][cooldown]") {
  Feed feed({cpu_hot(0ms, 100ms)});
  CHECK(feed.run(kCpuTotal, 0.9, 1) == std::vector<uint64_t>{0});
  CHECK(feed.run(kCpuTotal, 0.1, 10).empty());
  CHECK(feed.run(kCpuTotal, 0.9, 10).empty());  // ticks 11..20: within the cooldown
  CHECK(feed.run(kCpuTotal, 0.1, 79).empty());  // ticks 21..99
  CHECK(feed.run(kCpuTotal, 0.9, 1) == std::vector<uint64_t>{100});
}

TEST_CASE("NaN never satisfies a condition, whatever the comparison", "[engine][nan]") {
  for (Comparison op :
       {Comparison::greater, Comparison::greater_equal, Comparison::less, Comparison::less_equal}) {
    Feed feed({rule("r", "memory_used_bytes", op, 0.0)});
    CHECK(feed.run(kMemoryUsed, kNaN, 10).empty());
  }
  // And NaN breaks a hold in progress.
  Feed feed({cpu_hot(3ms)});
  CHECK(feed.run(kCpuTotal, 0.9, 2).empty());
  CHECK(feed.run(kCpuTotal, kNaN, 1).empty());
  CHECK(feed.run(kCpuTotal, 0.9, 2).empty());
  CHECK(feed.run(kCpuTotal, 0.9, 1) == std::vector<uint64_t>{5});
}

// The case: CPU at 98 % but for one tick in every 450, when the per-tick value dips
// (a coarse counter landing late). `for` never sees a second of holding; `over` sees the mean.
TEST_CASE("over: a signal that dips on single ticks fires on its mean, and not without over",
          "[engine][over]") {
  auto dipping = [](Feed& feed, size_t ticks) {
    std::vector<uint64_t> fired;
    for (size_t i = 0; i < ticks; ++i) {
      const uint64_t now = feed.tick;
      const auto got = feed.run(kCpuTotal, now % 450 == 449 ? 0.3 : 0.98, 1);
      fired.insert(fired.end(), got.begin(), got.end());
    }
    return fired;
  };
  auto per_tick = rule("busy", "cpu_busy_ratio{cpu=\"total\"}", Comparison::greater_equal, 0.95);
  per_tick.hold = 1s;
  Feed without({per_tick});
  CHECK(dipping(without, 5000).empty());

  auto averaged = per_tick;
  averaged.over = 100ms;
  Feed with({averaged});
  // The mean is known once ticks 0..99 have been seen; from tick 99 it holds (one dip in 100
  // ticks: 0.973), and the 1000th tick holding is 1098.
  CHECK(dipping(with, 1099) == std::vector<uint64_t>{1098});
}

TEST_CASE("over: the firing's value is the mean, and a single-tick spike does not fire",
          "[engine][over]") {
  auto spike = rule("spike", "cpu_busy_ratio{cpu=\"total\"}", Comparison::greater, 0.5);
  spike.over = 10ms;
  Feed feed({spike});
  CHECK(feed.run(kCpuTotal, 0.1, 20).empty());
  CHECK(feed.run(kCpuTotal, 1.0, 1).empty());  // the mean of ticks 11..20: 0.19
  CHECK(feed.run(kCpuTotal, 0.1, 20).empty());
  // Five ticks at 1.0 among the last ten: a mean of 0.55 on the fifth.
  CHECK(feed.run(kCpuTotal, 1.0, 4).empty());
  feed.derived[kCpuTotal] = 1.0;
  const auto fired = feed.step();
  REQUIRE(fired.size() == 1);
  CHECK(fired[0].value == Approx(0.55));
}

TEST_CASE("over: unknown ticks are left out of the mean instead of breaking the hold",
          "[engine][over]") {
  auto held = rule("held", "cpu_busy_ratio{cpu=\"total\"}", Comparison::greater, 0.8);
  held.over = 4ms;
  held.hold = 10ms;
  Feed feed({held});
  std::vector<uint64_t> fired;
  for (int i = 0; i < 40; ++i) {
    const auto got = feed.run(kCpuTotal, i % 2 == 0 ? 0.9 : kNaN, 1);
    fired.insert(fired.end(), got.begin(), got.end());
  }
  // Known from tick 3 (a whole 4-tick window), holding 10 ticks: tick 12.
  CHECK(fired == std::vector<uint64_t>{12});
  // A window with no known value has no mean: that does break the hold.
  Feed gaps({held});
  CHECK(gaps.run(kCpuTotal, 0.9, 8).empty());
  CHECK(gaps.run(kCpuTotal, kNaN, 4).empty());
  CHECK(gaps.run(kCpuTotal, 0.9, 9).empty());  // ticks 12..20: holding again from 12
  CHECK(gaps.run(kCpuTotal, 0.9, 1) == std::vector<uint64_t>{21});
}

TEST_CASE("rules fire independently of each other", "[engine]") {
  auto mem = rule("mem", "memory_used_bytes", Comparison::greater_equal, 8e9);
  Feed feed({cpu_hot(), mem});
  feed.derived[kMemoryUsed] = 8e9;
  feed.derived[kCpuTotal] = 0.9;
  auto firings = feed.step();
  REQUIRE(firings.size() == 2);
  CHECK(firings[0].rule == 0);
  CHECK(firings[1].rule == 1);
}

TEST_CASE("a manual request fires on the next tick with its reason", "[engine][manual]") {
  Feed feed({cpu_hot()});
  CHECK(feed.engine.fire_manual("deploy at 12:00"));
  auto firings = feed.step();
  REQUIRE(firings.size() == 1);
  CHECK(firings[0].rule == Firing::kManual);
  CHECK(std::isnan(firings[0].value));
  CHECK(feed.engine.manual_reason(firings[0].match) == "deploy at 12:00");
  CHECK(feed.step().empty());  // once
}

TEST_CASE("manual requests beyond the pending limit are refused", "[engine][manual]") {
  Feed feed({});
  for (size_t i = 0; i < TriggerEngine::kMaxPendingManual; ++i) {
    CHECK(feed.engine.fire_manual("r" + std::to_string(i)));
  }
  CHECK_FALSE(feed.engine.fire_manual("one too many"));
  CHECK(feed.step().size() == TriggerEngine::kMaxPendingManual);
  CHECK(feed.engine.fire_manual("room again"));
}

TEST_CASE("evaluate never allocates, firing or not", "[engine][alloc]") {
  auto any_cpu = rule("any_cpu", "cpu_busy_ratio", Comparison::greater, 0.8);
  any_cpu.cooldown = 0ms;
  auto averaged = any_cpu;
  averaged.name = "averaged";
  averaged.over = 3ms;
  Feed feed({cpu_hot(5ms, 10ms), any_cpu, averaged,
             rule("sdb", "disk_read_bytes_per_second{device=\"sdb\"}", Comparison::greater, 1),
             rule("low", "memory_available_bytes", Comparison::less, 1)});
  feed.host.disks->bind("sdb");
  feed.engine.fire_manual(std::string(100, 'x'));  // a reason too long for the small buffer
  size_t fired = 0;
  flightrec::testing::CountAllocations allocations;
  for (int i = 0; i < 200; ++i) {
    double level = (i / 20) % 2 == 0 ? 0.9 : 0.1;
    feed.derived[kCpuTotal] = level;
    feed.derived[kCpu0] = level;
    feed.derived[kDiskRead1] = level;
    sampler::FrameHeader header{feed.tick, static_cast<int64_t>(feed.tick) * 1'000'000, 0};
    ++feed.tick;
    fired += feed.engine.evaluate(header, feed.raw, feed.derived).size();
  }
  CHECK(fired > 100);  // the loop did exercise firing
  CHECK(allocations.count() == 0);
}

TEST_CASE("replaced rules take effect on the next frame", "[engine][reload]") {
  Feed feed({cpu_hot()});
  auto memory = rule("mem_high", "memory_used_bytes", Comparison::greater, 1e9);
  memory.cooldown = 0ms;
  feed.engine.replace_rules(feed.engine.resolve_rules({memory}));
  feed.derived[kMemoryUsed] = 2e9;
  feed.derived[kCpuTotal] = 0.9;
  const auto fired = feed.step();
  REQUIRE(fired.size() == 1);
  CHECK(feed.engine.rules()[fired[0].rule].name == "mem_high");
  CHECK(feed.engine.rules().size() == 1);
}

TEST_CASE("a rule the reload leaves unchanged keeps its cooldown and holding time",
          "[engine][reload]") {
  auto held = cpu_hot(5ms, 0ms);
  held.name = "cpu_held";
  Feed feed({cpu_hot(0ms, 60s), held});
  CHECK(feed.run(kCpuTotal, 0.9, 3) == std::vector<uint64_t>{0});  // cpu_hot's cooldown starts

  auto moved = cpu_hot(0ms, 60s);
  moved.line = 40;  // the same rule, further down an edited file
  feed.engine.replace_rules(feed.engine.resolve_rules({moved, held}));
  // cpu_hot is still in its cooldown, and cpu_held fires on its 5th tick of holding (4, then 5:
  // no cooldown), not 5 ticks after the reload. Fresh states would fire at 3 and 7.
  CHECK(feed.run(kCpuTotal, 0.9, 3) == std::vector<uint64_t>{4, 5});
}

TEST_CASE("resolved rules change nothing until they replace the running ones", "[engine][reload]") {
  Feed feed({cpu_hot()});
  auto memory = rule("mem_high", "memory_used_bytes", Comparison::greater, 1e9);
  auto resolved = feed.engine.resolve_rules({memory});
  feed.derived[kMemoryUsed] = 2e9;
  CHECK(feed.run(kCpuTotal, 0.9, 1) == std::vector<uint64_t>{0});
  CHECK(feed.engine.rules()[0].name == "cpu_hot");
  feed.engine.replace_rules(std::move(resolved));
  const auto fired = feed.step();
  REQUIRE(fired.size() == 1);
  CHECK(feed.engine.rules()[fired[0].rule].name == "mem_high");
}

TEST_CASE("a replacement naming an unknown signal throws and the running rules stay",
          "[engine][reload]") {
  Feed feed({cpu_hot()});
  auto typo = rule("typo", "cpu_bussy_ratio", Comparison::greater, 0.5);
  CHECK_THROWS_WITH(feed.engine.resolve_rules({typo}),
                    Catch::Matchers::Contains("unknown signal \"cpu_bussy_ratio\""));
  CHECK(feed.run(kCpuTotal, 0.9, 1) == std::vector<uint64_t>{0});
}
