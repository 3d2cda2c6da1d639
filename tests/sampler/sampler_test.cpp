#include "flightrec/sampler/sampler.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "allocation_counter.h"
#include "flightrec/sampler/file_reader.h"

using namespace flightrec::sampler;
using namespace std::chrono_literals;

namespace {

// Reads a real kernel file each tick and reports its length and a call count: enough to see the
// sampler's plumbing (order, offsets, timing) without depending on any one system source.
class FileLengthSource final : public Source {
 public:
  explicit FileLengthSource(const char* path) : reader_(path) {}
  std::string_view name() const noexcept override { return "file_length"; }
  void describe(Schema& out) const override {
    out.push_back({.name = "file_length_bytes", .help = "length", .unit = "bytes"});
    out.push_back({.name = "calls_total", .help = "calls", .kind = SeriesKind::counter});
  }
  SampleStatus sample(std::span<int64_t> out) noexcept override {
    std::string_view bytes;
    if (!reader_.read(bytes)) return SampleStatus::failed;
    out[0] = static_cast<int64_t>(bytes.size());
    out[1] = ++calls_;
    return SampleStatus::ok;
  }

 private:
  FileReader reader_;
  int64_t calls_ = 0;
};

// Stalls the sampler once, at its `at`-th read, for `stall`: deadlines pass with no tick.
class StallOnceSource final : public Source {
 public:
  StallOnceSource(int at, std::chrono::nanoseconds stall) : at_(at), stall_(stall) {}
  std::string_view name() const noexcept override { return "stall_once"; }
  void describe(Schema& out) const override {
    out.push_back({.name = "stall_calls_total", .help = "calls", .kind = SeriesKind::counter});
  }
  SampleStatus sample(std::span<int64_t> out) noexcept override {
    out[0] = ++calls_;
    if (calls_ == at_) std::this_thread::sleep_for(stall_);
    return SampleStatus::ok;
  }

 private:
  int at_;
  std::chrono::nanoseconds stall_;
  int calls_ = 0;
};

Sampler make_sampler(std::chrono::nanoseconds rate) {
  std::vector<std::unique_ptr<Source>> sources;
  sources.push_back(std::make_unique<FileLengthSource>("/proc/loadavg"));
  sources.push_back(std::make_unique<FileLengthSource>("/proc/self/stat"));
  return Sampler(std::move(sources), rate);
}

}  // namespace

TEST_CASE("Sampler lays sources out in order in one schema", "[sampler]") {
  auto sampler = make_sampler(1ms);
  REQUIRE(sampler.schema().size() == 4);
  CHECK(sampler.schema()[0].name == "file_length_bytes");
  CHECK(sampler.schema()[3].name == "calls_total");
  CHECK(sampler.stats().sources.size() == 2);
}

TEST_CASE("Sampler ticks at its rate and hands every frame to the queue", "[sampler]") {
  auto sampler = make_sampler(1ms);
  FrameQueue queue(sampler.schema().size(), 256);
  flightrec::StopSignal stop;
  const auto begin = std::chrono::steady_clock::now();
  sampler.run(queue, stop, 100);
  const auto took = std::chrono::steady_clock::now() - begin;

  CHECK(sampler.stats().ticks == 100);
  CHECK(took >= 95ms);  // 100 deadlines 1 ms apart cannot all pass sooner
  FrameHeader header;
  std::vector<int64_t> values(sampler.schema().size());
  uint64_t frames = 0;
  uint64_t last_tick = 0;
  int64_t last_calls = 0;
  while (queue.pop(header, values)) {
    if (frames > 0) CHECK(header.tick > last_tick);
    CHECK(values[1] == last_calls + 1);  // each source read exactly once per frame
    CHECK(values[0] > 0);
    last_tick = header.tick;
    last_calls = values[1];
    ++frames;
  }
  CHECK(frames == 100);
  // Every tick index is accounted for: sampled, or counted as missed.
  CHECK(last_tick + 1 == sampler.stats().ticks + sampler.stats().missed_ticks);
  CHECK(sampler.stats().sources[0]->reads == 100);
  CHECK(sampler.stats().sources[0]->duration_ns_total > 0);
}

TEST_CASE("Sampler's elapsed time on the clock accounts for every tick and missed tick",
          "[sampler]") {
  std::vector<std::unique_ptr<Source>> sources;
  sources.push_back(std::make_unique<StallOnceSource>(10, 5500us));
  Sampler sampler(std::move(sources), 1ms);
  FrameQueue queue(sampler.schema().size(), 256);
  flightrec::StopSignal stop;
  CHECK(sampler.stats().elapsed_ns == 0);
  sampler.run(queue, stop, 40);

  const auto& stats = sampler.stats();
  // Five or more deadlines passed during the stall; the next tick takes the newest of them.
  CHECK(stats.missed_ticks >= 4);
  // Deadlines passed by the newest tick, on CLOCK_MONOTONIC: each one sampled or counted missed
  // (one more only if a deadline fell between the timer read and the clock read).
  const uint64_t passed = static_cast<uint64_t>(stats.elapsed_ns.load() / 1'000'000);
  CHECK(passed >= stats.ticks + stats.missed_ticks);
  CHECK(passed <= stats.ticks + stats.missed_ticks + 1);
}

TEST_CASE("Sampler returns at once when the stop came before it started", "[sampler]") {
  auto sampler = make_sampler(10s);
  FrameQueue queue(sampler.schema().size(), 4);
  flightrec::StopSignal stop;
  stop.request();
  sampler.wake();  // lands before run() arms its timer, and so is overwritten
  const auto begin = std::chrono::steady_clock::now();
  sampler.run(queue, stop);
  CHECK(std::chrono::steady_clock::now() - begin < 1s);
}

TEST_CASE("Sampler counts frames the full queue could not take", "[sampler]") {
  auto sampler = make_sampler(1ms);
  FrameQueue queue(sampler.schema().size(), 5);
  flightrec::StopSignal stop;
  sampler.run(queue, stop, 20);
  CHECK(sampler.stats().queue_overflows == 15);
}

TEST_CASE("Sampler stops promptly on request even with a long period", "[sampler]") {
  auto sampler = make_sampler(10s);
  FrameQueue queue(sampler.schema().size(), 4);
  flightrec::StopSignal stop;
  std::thread stopper([&] {
    std::this_thread::sleep_for(50ms);
    stop.request();
    sampler.wake();
  });
  const auto begin = std::chrono::steady_clock::now();
  sampler.run(queue, stop);
  const auto took = std::chrono::steady_clock::now() - begin;
  stopper.join();
  CHECK(took < 1s);
  CHECK(sampler.stats().ticks == 0);
}

TEST_CASE("Sampler's tick loop does not allocate in steady state", "[sampler][alloc]") {
  auto sampler = make_sampler(1ms);
  FrameQueue queue(sampler.schema().size(), 1024);
  flightrec::StopSignal stop;
  sampler.run(queue, stop, 10);  // warm-up: buffers reach their size
  flightrec::testing::CountAllocations counter;
  sampler.run(queue, stop, 200);
  CHECK(counter.count() == 0);
}

TEST_CASE("Lateness histogram quantiles report the bucket bound holding the rank", "[sampler]") {
  LatenessHistogram h;
  CHECK(h.quantile_upper_bound_ns(0.5) == -1);
  for (int i = 0; i < 98; ++i) h.observe(30'000);  // 30 us -> 50 us bucket
  h.observe(700'000);                              // 700 us -> 1000 us bucket
  h.observe(3'000'000'000);                        // 3 s -> +Inf
  CHECK(h.quantile_upper_bound_ns(0.5) == 50'000);
  CHECK(h.quantile_upper_bound_ns(0.985) == 1'000'000);
  CHECK(h.quantile_upper_bound_ns(1.0) == INT64_MAX);
}

TEST_CASE("Each source is read at its own rate and repeats its values in between", "[sampler]") {
  std::vector<std::unique_ptr<Source>> sources;
  sources.push_back(std::make_unique<FileLengthSource>("/proc/loadavg"));
  sources.push_back(std::make_unique<FileLengthSource>("/proc/self/stat"));
  // 4 ms and 2.6 ms at a 1 ms tick: every 4th tick, and every 3rd (rounded to the nearest).
  Sampler sampler(std::move(sources), 1ms, {4ms, 2600us});
  CHECK(sampler.read_every(0) == 4);
  CHECK(sampler.read_every(1) == 3);
  CHECK(sampler.source_rate(1) == 3ms);
  CHECK(sampler.stats().sources[0]->rate_ns == 4'000'000);

  std::vector<int64_t> values(sampler.schema().size(), kAbsent);
  std::vector<int64_t> first_calls;
  for (uint64_t tick = 0; tick < 24; ++tick) {
    sampler.sample_due(tick, values);
    first_calls.push_back(values[1]);
  }
  CHECK(values[1] == 6);  // 24 ticks / 4
  CHECK(values[3] == 9);  // periods of 3 ticks, starting one tick early: (23 + 1) / 3 + 1
  CHECK(sampler.stats().sources[0]->reads == 6);
  // Between two reads the frame keeps the source's last values.
  for (size_t tick = 1; tick < first_calls.size(); ++tick) {
    CHECK(first_calls[tick] - first_calls[tick - 1] <= 1);
  }
}

TEST_CASE("A source whose due tick was skipped is read at the next tick the thread gets",
          "[sampler]") {
  std::vector<std::unique_ptr<Source>> sources;
  sources.push_back(std::make_unique<FileLengthSource>("/proc/loadavg"));
  Sampler sampler(std::move(sources), 1ms, {10ms});
  std::vector<int64_t> values(sampler.schema().size(), kAbsent);
  sampler.sample_due(0, values);  // the first tick reads everything
  CHECK(values[1] == 1);
  sampler.sample_due(5, values);  // same 10-tick period: not due
  CHECK(values[1] == 1);
  sampler.sample_due(13, values);  // ticks 10..12 were missed; 13 is in the next period
  CHECK(values[1] == 2);
  sampler.sample_due(19, values);
  CHECK(values[1] == 2);
}

TEST_CASE("A rate faster than the tick reads every tick; a wrong count of rates is refused",
          "[sampler]") {
  std::vector<std::unique_ptr<Source>> sources;
  sources.push_back(std::make_unique<FileLengthSource>("/proc/loadavg"));
  Sampler fast(std::move(sources), 2ms, {100us});
  CHECK(fast.read_every(0) == 1);
  CHECK(fast.source_rate(0) == 2ms);

  std::vector<std::unique_ptr<Source>> two;
  two.push_back(std::make_unique<FileLengthSource>("/proc/loadavg"));
  two.push_back(std::make_unique<FileLengthSource>("/proc/loadavg"));
  CHECK_THROWS_AS(Sampler(std::move(two), 1ms, {1ms}), std::invalid_argument);
}
