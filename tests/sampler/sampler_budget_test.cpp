// The sampler under sampler.cpu_budget, on the real clocks: it slows its costliest source while the
// process is over budget, restores it when well under, and its tick accounting is unchanged.
#include <time.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "allocation_counter.h"
#include "flightrec/sampler/sampler.h"

using namespace flightrec::sampler;
using namespace std::chrono_literals;

namespace {

int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// Each read burns `spin` of CPU while `busy` is set (the costliest source), then counts the call.
class BusySource final : public Source {
 public:
  BusySource(std::chrono::nanoseconds spin, const std::atomic<bool>& busy)
      : spin_(spin), busy_(busy) {}
  std::string_view name() const noexcept override { return "busy"; }
  void describe(Schema& out) const override {
    out.push_back({.name = "busy_calls_total", .help = "calls", .kind = SeriesKind::counter});
  }
  SampleStatus sample(std::span<int64_t> out) noexcept override {
    if (busy_.load()) {
      const int64_t until = thread_cpu_ns() + spin_.count();
      while (thread_cpu_ns() < until) {
      }
    }
    out[0] = ++calls_;
    return SampleStatus::ok;
  }

 private:
  std::chrono::nanoseconds spin_;
  const std::atomic<bool>& busy_;
  int64_t calls_ = 0;
};

// Costs next to nothing: never the costliest while the busy source spins.
class CheapSource final : public Source {
 public:
  std::string_view name() const noexcept override { return "cheap"; }
  void describe(Schema& out) const override {
    out.push_back({.name = "cheap_calls_total", .help = "calls", .kind = SeriesKind::counter});
  }
  SampleStatus sample(std::span<int64_t> out) noexcept override {
    out[0] = ++calls_;
    return SampleStatus::ok;
  }

 private:
  int64_t calls_ = 0;
};

Sampler busy_and_cheap(std::chrono::nanoseconds tick, std::chrono::nanoseconds spin,
                       const std::atomic<bool>& busy, const CpuBudgetSettings& budget) {
  std::vector<std::unique_ptr<Source>> sources;
  sources.push_back(std::make_unique<BusySource>(spin, busy));
  sources.push_back(std::make_unique<CheapSource>());
  return Sampler(std::move(sources), tick, {tick, tick}, budget);
}

uint64_t changes_of(const SourceStats& s) { return s.rate_lowerings + s.rate_restorings; }

}  // namespace

TEST_CASE("Over its CPU budget the sampler reads the costliest source less often", "[budget]") {
  const std::atomic<bool> busy{true};
  // 0.1 %: any running process is over it. Short windows so the test takes half a second.
  auto sampler = busy_and_cheap(
      1ms, 50us, busy, {.budget = 0.001, .window = 50ms, .check_every = 10ms, .slowest = 16ms});
  FrameQueue queue(sampler.schema().size(), 1024);
  flightrec::StopSignal stop;
  sampler.run(queue, stop, 500);

  const SamplerStats& stats = sampler.stats();
  const SourceStats& costly = *stats.sources[0];
  CHECK(costly.rate_lowerings >= 2);
  CHECK(costly.rate_restorings == 0);
  CHECK(costly.configured_rate_ns == 1'000'000);
  CHECK(costly.rate_ns > 1'000'000);
  CHECK(sampler.source_rate(0).count() == costly.rate_ns);
  CHECK(sampler.source_rate(0) <= 16ms);
  CHECK(sampler.configured_rate(0) == 1ms);
  CHECK(costly.reads < stats.ticks);
  CHECK(stats.cpu_used > 0.001);
  CHECK(stats.rate_changes.total() == changes_of(costly) + changes_of(*stats.sources[1]));
  // The first change doubled the busy source's period.
  CHECK_THAT(rate_changes_text(stats), Catch::StartsWith("busy=2ms@"));

  // The tick loop's accounting is untouched: every frame handed on, every deadline sampled or
  // counted missed.
  FrameHeader header;
  std::vector<int64_t> values(sampler.schema().size());
  uint64_t frames = 0;
  uint64_t last_tick = 0;
  while (queue.pop(header, values)) {
    last_tick = header.tick;
    ++frames;
  }
  CHECK(frames == 500);
  CHECK(frames == stats.ticks);
  CHECK(last_tick + 1 == stats.ticks + stats.missed_ticks);
  CHECK(values[0] == static_cast<int64_t>(costly.reads.load()));
}

TEST_CASE("Well under its CPU budget again the sampler restores the rates it lowered", "[budget]") {
  std::atomic<bool> busy{true};
  // At a 2 ms tick the busy source alone uses ~30 % of a core, the timer a few %: over a 15 %
  // budget until it is slowed; once it stops spinning the process is far under 10.5 %.
  auto sampler = busy_and_cheap(
      2ms, 600us, busy, {.budget = 0.15, .window = 60ms, .check_every = 20ms, .slowest = 64ms});
  FrameQueue queue(sampler.schema().size(), 64);
  flightrec::StopSignal stop;
  std::thread ticking([&] { sampler.run(queue, stop); });

  // Read from another thread the way /metrics does: through the stats' atomics only.
  const SourceStats& costly = *sampler.stats().sources[0];
  auto wait_for = [](auto condition) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!condition() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(5ms);
    }
    return condition();
  };
  FrameHeader header;
  std::vector<int64_t> values(sampler.schema().size());
  auto drain = [&] {
    while (queue.pop(header, values)) {
    }
  };
  const bool lowered = wait_for([&] {
    drain();
    return costly.rate_lowerings.load() >= 1;
  });
  busy = false;
  const bool restored = wait_for([&] {
    drain();
    return costly.rate_ns.load() == costly.configured_rate_ns;
  });
  stop.request();
  sampler.wake();
  ticking.join();

  CHECK(lowered);
  CHECK(restored);
  CHECK(costly.rate_restorings == costly.rate_lowerings);
  CHECK(sampler.read_every(0) == 1);
  CHECK(sampler.stats().rate_changes.total() ==
        changes_of(costly) + changes_of(*sampler.stats().sources[1]));
}

TEST_CASE("A budget check that changes nothing does not allocate", "[budget][alloc]") {
  const std::atomic<bool> busy{false};
  // 400 %: never over it, and nothing was lowered to restore.
  auto sampler =
      busy_and_cheap(1ms, 0us, busy, {.budget = 4.0, .window = 20ms, .check_every = 5ms});
  FrameQueue queue(sampler.schema().size(), 1024);
  flightrec::StopSignal stop;
  sampler.run(queue, stop, 10);
  flightrec::testing::CountAllocations counter;
  sampler.run(queue, stop, 200);
  CHECK(counter.count() == 0);
  CHECK(sampler.stats().cpu_used >= 0);  // the window was measured meanwhile
  CHECK(sampler.stats().rate_changes.total() == 0);
}
