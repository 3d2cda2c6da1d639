// The sampler's loop on an in-kernel tick (Sampler::use_kernel_ticks): frames come from the
// kernel's ticks, their numbers from the ticks' times, file sources are read at the wake-ups.
// The kernel's timer is played here by the clock (ClockTicks), so that gaps can be scripted; the
// real program is tested in tests/sampler/ebpf_kernel_ticks_test.cpp and end to end.
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "flightrec/common/clock.h"
#include "flightrec/common/fd.h"
#include "flightrec/common/stop_signal.h"
#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sampler.h"

using namespace flightrec::sampler;
using namespace std::chrono_literals;

namespace {

int64_t mono_now() { return flightrec::clock_ns(CLOCK_MONOTONIC); }

// A kernel timer played by the clock: tick k fires at start + (k + 1) * period, and a drain hands
// on every tick fired since the previous drain, each with k as its context switch count. The ticks
// in `missing` (counted from the first tick after the first drain, which the sampler discards as
// fired before its start) are never recorded, as a timer on a stolen CPU would not. Its wake-ups
// are a timerfd on the same grid, every wake_every ticks.
class ClockTicks final : public KernelTicks {
 public:
  ClockTicks(std::chrono::nanoseconds period, std::set<uint64_t> missing)
      : period_(period),
        missing_(std::move(missing)),
        start_(mono_now()),
        wake_(::timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK)) {}

  [[nodiscard]] std::chrono::nanoseconds period() const noexcept override { return period_; }
  [[nodiscard]] size_t cpu_count() const noexcept override { return 1; }
  [[nodiscard]] uint64_t lost() const noexcept override { return 0; }
  [[nodiscard]] uint32_t timer_cpu() const noexcept override { return 0; }
  [[nodiscard]] int wait_fd() const noexcept override { return wake_.get(); }

  void wake_every(uint32_t ticks) noexcept override {
    const int64_t every = period_.count() * ticks;
    const int64_t first = start_ + every;
    const itimerspec spec{{every / 1'000'000'000, every % 1'000'000'000},
                          {first / 1'000'000'000, first % 1'000'000'000}};
    ::timerfd_settime(wake_.get(), TFD_TIMER_ABSTIME, &spec, nullptr);
  }

  void drain(KernelTickBatch& out) override {
    uint64_t expirations = 0;
    static_cast<void>(::read(wake_.get(), &expirations, sizeof expirations));  // not readable now
    out.clear();
    out.cpu_count = 1;
    const int64_t now = mono_now();
    const int64_t period = period_.count();
    for (; start_ + static_cast<int64_t>(next_ + 1) * period <= now; ++next_) {
      if (drains_ > 0 && missing_.contains(next_ - first_kept_)) continue;
      out.heads.push_back({.mono_ns = start_ + static_cast<int64_t>(next_ + 1) * period,
                           .context_switches = next_});
      out.cpu_times.push_back({});
    }
    if (drains_++ == 0) first_kept_ = next_;
  }

 private:
  std::chrono::nanoseconds period_;
  std::set<uint64_t> missing_;
  int64_t start_;
  uint64_t next_ = 0;
  uint64_t first_kept_ = 0;
  uint64_t drains_ = 0;
  flightrec::Fd wake_;
};

// All of its one value comes from the kernel tick (its context switch count); its file is never
// read, and it counts the reads it was asked for.
class TickCountSource final : public Source {
 public:
  explicit TickCountSource(int& reads) : reads_(reads) {}
  std::string_view name() const noexcept override { return "tick_count"; }
  void describe(Schema& out) const override {
    out.push_back({.name = "tick_ctxt_total", .help = "ctxt", .kind = SeriesKind::counter});
  }
  SampleStatus sample(std::span<int64_t> /*out*/) noexcept override {
    ++reads_;
    return SampleStatus::failed;
  }
  KernelTickShare kernel_tick_share() const noexcept override { return KernelTickShare::all; }
  void take_kernel_tick(const KernelTickBatch& batch, size_t tick,
                        std::span<int64_t> out) noexcept override {
    out[0] = static_cast<int64_t>(batch.heads[tick].context_switches);
  }

 private:
  int& reads_;
};

// A file source: counts its reads.
class ReadCountSource final : public Source {
 public:
  std::string_view name() const noexcept override { return "read_count"; }
  void describe(Schema& out) const override {
    out.push_back({.name = "reads_total", .help = "reads", .kind = SeriesKind::counter});
  }
  SampleStatus sample(std::span<int64_t> out) noexcept override {
    std::string_view text;
    out[0] = reader_.read(text) ? ++reads_ : kAbsent;
    return SampleStatus::ok;
  }

 private:
  FileReader reader_{"/proc/loadavg"};
  int64_t reads_ = 0;
};

struct Run {
  std::vector<FrameHeader> headers;
  std::vector<int64_t> ctxt;   // tick_ctxt_total of each frame
  std::vector<int64_t> reads;  // reads_total of each frame
};

// A sampler at 1 ms with the tick source and a file source read every `file_every`, on ClockTicks.
Run run_on_clock_ticks(Sampler& sampler, std::set<uint64_t> missing, uint64_t frames) {
  sampler.use_kernel_ticks(std::make_unique<ClockTicks>(sampler.rate(), std::move(missing)));
  FrameQueue queue(sampler.schema().size(), 1024);
  flightrec::StopSignal stop;
  sampler.run(queue, stop, frames);
  Run run;
  FrameHeader header{};
  std::vector<int64_t> values(sampler.schema().size());
  while (queue.pop(header, values)) {
    run.headers.push_back(header);
    run.ctxt.push_back(values[0]);
    run.reads.push_back(values[1]);
  }
  return run;
}

Sampler make_sampler(int& tick_source_reads, std::chrono::nanoseconds file_rate) {
  std::vector<std::unique_ptr<Source>> sources;
  sources.push_back(std::make_unique<TickCountSource>(tick_source_reads));
  sources.push_back(std::make_unique<ReadCountSource>());
  return Sampler(std::move(sources), 1ms, {1ms, file_rate});
}

}  // namespace

TEST_CASE("On kernel ticks every tick is a frame and the thread wakes at its file source's rate",
          "[sampler][kernel_tick]") {
  int tick_source_reads = 0;
  Sampler sampler = make_sampler(tick_source_reads, 5ms);
  const Run run = run_on_clock_ticks(sampler, {}, 60);
  CHECK(sampler.backend() == "ebpf");
  CHECK(sampler.stats().backend == "ebpf");
  CHECK(sampler.wake_every() == 5);
  REQUIRE(run.headers.size() == 60);
  for (size_t i = 0; i < run.headers.size(); ++i) {
    INFO("frame " << i);
    CHECK(run.headers[i].tick == i);
    // The tick's own values, and its own time: one period after the one before.
    CHECK(run.ctxt[i] - run.ctxt[0] == static_cast<int64_t>(i));
    if (i > 0) CHECK(run.headers[i].mono_ns - run.headers[i - 1].mono_ns == 1'000'000);
    // A file value comes from a read made before the frame's tick: never from a later one.
    if (i > 0) CHECK(run.reads[i] >= run.reads[i - 1]);
  }
  CHECK(tick_source_reads == 0);  // a source the tick gives whole is never read
  // One read before the first wake-up, then one per wake-up (every 5 ticks): ~13 for 60 ticks,
  // where the thread's own timer would have woken 60 times.
  const int64_t file_reads = run.reads.back();
  CHECK(file_reads >= 10);
  CHECK(file_reads <= 16);
  CHECK(sampler.stats().ticks.load() == 60);
  CHECK(sampler.stats().missed_ticks.load() == 0);
}

TEST_CASE("On kernel ticks a tick the kernel never recorded is counted missed, and the sums hold",
          "[sampler][kernel_tick]") {
  int tick_source_reads = 0;
  Sampler sampler = make_sampler(tick_source_reads, 4ms);
  const Run run = run_on_clock_ticks(sampler, {5, 6, 7, 20}, 30);
  REQUIRE(run.headers.size() == 30);
  CHECK(run.headers[4].tick == 4);
  CHECK(run.headers[5].tick == 8);  // 5, 6 and 7 never fired
  CHECK(run.headers[5].mono_ns - run.headers[4].mono_ns == 4'000'000);
  CHECK(run.headers.back().tick == 33);
  const SamplerStats& stats = sampler.stats();
  CHECK(stats.missed_ticks.load() == 4);
  // frames + missed = elapsed / rate, as on the thread's own timer.
  CHECK(stats.ticks.load() + stats.missed_ticks.load() ==
        static_cast<uint64_t>(stats.elapsed_ns.load() / 1'000'000));
}

TEST_CASE("A kernel tick of another period than the sampler's rate is refused",
          "[sampler][kernel_tick]") {
  int tick_source_reads = 0;
  Sampler sampler = make_sampler(tick_source_reads, 4ms);
  CHECK_THROWS_AS(sampler.use_kernel_ticks(std::make_unique<ClockTicks>(2ms, std::set<uint64_t>{})),
                  std::invalid_argument);
  CHECK(sampler.backend() == "procfs");
}

TEST_CASE("On kernel ticks a file source's period becomes a whole number of wake-ups, never slower",
          "[sampler][kernel_tick]") {
  int tick_source_reads = 0;
  std::vector<std::unique_ptr<Source>> sources;
  sources.push_back(std::make_unique<TickCountSource>(tick_source_reads));
  sources.push_back(std::make_unique<ReadCountSource>());
  sources.push_back(std::make_unique<ReadCountSource>());
  Sampler sampler(std::move(sources), 1ms, {1ms, 4ms, 10ms});
  sampler.use_kernel_ticks(std::make_unique<ClockTicks>(1ms, std::set<uint64_t>{}));
  CHECK(sampler.wake_every() == 4);
  CHECK(sampler.source_rate(1) == 4ms);
  // Read at a wake-up, its values serve the frames until its next read: read every 10 ticks at
  // wake-ups 4 ticks apart, some frames would show a value 12 ticks old.
  CHECK(sampler.source_rate(2) == 8ms);
  CHECK(sampler.stats().sources[2]->rate_ns.load() == 8'000'000);
}
