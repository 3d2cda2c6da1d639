#include "flightrec/sampler/sampler.h"

#include <sched.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <system_error>

#include "flightrec/common/fd.h"
#include "flightrec/common/log.h"
#include "flightrec/config/units.h"

namespace flightrec::sampler {
namespace {

int64_t now_ns(clockid_t clock) noexcept {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

timespec to_timespec(int64_t ns) noexcept {
  return timespec{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
}

// Adds `fd` to the epoll set `poll_set`, for reading.
bool watch(int poll_set, int fd) noexcept {
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.fd = fd;
  return ::epoll_ctl(poll_set, EPOLL_CTL_ADD, fd, &event) == 0;
}

// The longest the thread sleeps between two drains of an in-kernel tick.
constexpr std::chrono::milliseconds kLongestKernelWake{100};

// Ticks a drain can hold before the batch grows: four wake-ups' worth, a late thread's margin.
size_t kernel_batch_capacity(uint32_t wake_every) { return static_cast<size_t>(wake_every) * 4; }

// No tick has the index UINT64_MAX, so every source is due at the first tick whatever it is.
constexpr uint64_t kNeverRead = UINT64_MAX;

// A share of one core as the config writes it: 0.051234 -> "5.1234%".
std::string percent_text(double share) {
  return config::format_percent_ppm(
      static_cast<uint64_t>(std::llround(std::max(share, 0.0) * 1e6)));
}

}  // namespace

uint32_t whole_ticks(std::chrono::nanoseconds period, std::chrono::nanoseconds tick) noexcept {
  const auto ticks = (period.count() + tick.count() / 2) / tick.count();
  return static_cast<uint32_t>(std::clamp<int64_t>(ticks, 1, UINT32_MAX));
}

Sampler::Sampler(std::vector<std::unique_ptr<Source>> sources, std::chrono::nanoseconds rate,
                 const std::vector<std::chrono::nanoseconds>& source_rates,
                 const CpuBudgetSettings& budget)
    : sources_(std::move(sources)),
      budget_(budget),
      rate_(rate),
      timer_(::timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC)) {
  if (!timer_) throw std::system_error(errno, std::generic_category(), "timerfd_create");
  for (const auto& source : sources_) {
    offsets_.push_back(schema_.size());
    source->describe(schema_);
    auto stats = std::make_unique<SourceStats>();
    stats->name = std::string(source->name());
    stats_.sources.push_back(std::move(stats));
  }
  offsets_.push_back(schema_.size());
  values_.assign(schema_.size(), kAbsent);
  if (!source_rates.empty() && source_rates.size() != sources_.size()) {
    throw std::invalid_argument("the sampler needs one rate per source");
  }
  for (size_t i = 0; i < sources_.size(); ++i) {
    configured_every_.push_back(source_rates.empty() ? 1 : whole_ticks(source_rates[i], rate_));
    stats_.sources[i]->configured_rate_ns = configured_rate(i).count();
    stats_.sources[i]->rate_ns = configured_rate(i).count();
  }
  read_every_ = configured_every_;
  read_period_.assign(sources_.size(), kNeverRead);
  kernel_share_.assign(sources_.size(), KernelTickShare::none);
  if (budget_.budget > 0) {
    stats_.cpu_budget = budget_.budget;
    budget_window_.emplace(budget_, sources_.size());
    budget_read_ns_.assign(sources_.size(), 0);
    budget_read_shares_.assign(sources_.size(), 0);
    const uint32_t slowest = whole_ticks(budget_.slowest, rate_);
    for (const uint32_t every : configured_every_) {
      budget_costs_.push_back(
          {.configured_every = every, .slowest_every = std::max(slowest, every)});
    }
  }
}

void Sampler::read_source(size_t index, std::span<int64_t> values) noexcept {
  const auto out = values.subspan(offsets_[index], offsets_[index + 1] - offsets_[index]);
  const int64_t start = now_ns(CLOCK_MONOTONIC);
  const SampleStatus status = sources_[index]->sample(out);
  const int64_t took = now_ns(CLOCK_MONOTONIC) - start;
  SourceStats& s = *stats_.sources[index];
  s.reads.fetch_add(1, std::memory_order_relaxed);
  s.duration_ns_total.fetch_add(static_cast<uint64_t>(took), std::memory_order_relaxed);
  s.last_duration_ns.store(took, std::memory_order_relaxed);
  s.last_ok.store(status != SampleStatus::failed, std::memory_order_relaxed);
  if (status == SampleStatus::failed) s.failures.fetch_add(1, std::memory_order_relaxed);
  if (status == SampleStatus::partial) s.partials.fetch_add(1, std::memory_order_relaxed);
}

void Sampler::sample_once(std::span<int64_t> values) noexcept {
  for (size_t i = 0; i < sources_.size(); ++i) read_source(i, values);
}

void Sampler::sample_due(uint64_t tick, std::span<int64_t> values) noexcept {
  for (size_t i = 0; i < sources_.size(); ++i) {
    if (kernel_share_[i] == KernelTickShare::all) continue;
    // Periods of read_every ticks each: the source is due once per period, at the first tick the
    // thread gets in it, so a late thread delays a read but never skips a period it wakes in.
    // Each source's periods start `i` ticks apart, so sources of equal rates are not all read at
    // the same tick and the longest tick stays short.
    const uint64_t period = (tick + i) / read_every_[i];
    if (period == read_period_[i]) continue;
    read_period_[i] = period;
    read_source(i, values);
  }
}

void Sampler::check_budget(int64_t mono_ns) {
  // On the grid of check_every from the first check; after a stall, from now.
  next_budget_check_ns_ = std::max(next_budget_check_ns_ + budget_.check_every.count(),
                                   mono_ns + budget_.check_every.count() / 2);
  for (size_t i = 0; i < sources_.size(); ++i) {
    budget_read_ns_[i] = stats_.sources[i]->duration_ns_total.load(std::memory_order_relaxed);
  }
  const auto used = budget_window_->add(mono_ns, now_ns(CLOCK_PROCESS_CPUTIME_ID), budget_read_ns_,
                                        budget_read_shares_);
  if (!used) return;
  stats_.cpu_used.store(*used, std::memory_order_relaxed);
  for (size_t i = 0; i < sources_.size(); ++i) {
    budget_costs_[i].read_share = budget_read_shares_[i];
    budget_costs_[i].every = read_every_[i];
  }
  const auto step = next_rate_step(*used, budget_, budget_costs_);
  if (step) {
    apply_rate_step(*step, *used);
    budget_window_->restart();
    return;
  }
  const bool exhausted = *used > budget_.budget;
  if (exhausted && !budget_exhausted_logged_) {
    log::warn("sampler.cpu_budget: over budget with every source at its slowest rate",
              {{"cpu", percent_text(*used)}, {"budget", percent_text(budget_.budget)}});
  }
  budget_exhausted_logged_ = exhausted;
}

void Sampler::apply_rate_step(const RateStep& step, double used) {
  const size_t i = step.source;
  const std::chrono::nanoseconds from = source_rate(i);
  read_every_[i] = step.to_every;
  const std::chrono::nanoseconds to = source_rate(i);
  SourceStats& s = *stats_.sources[i];
  s.rate_ns.store(to.count(), std::memory_order_relaxed);
  (step.lowers() ? s.rate_lowerings : s.rate_restorings).fetch_add(1, std::memory_order_relaxed);
  stats_.rate_changes.add({.real_ns = now_ns(CLOCK_REALTIME), .source = i, .rate_ns = to.count()});
  const std::initializer_list<log::Field> fields{
      {"source", s.name},
      {"from", config::format_duration(from)},
      {"to", config::format_duration(to)},
      {"cpu", percent_text(used)},
      {"budget", percent_text(budget_.budget)},
      {"source_cpu", percent_text(budget_costs_[i].read_share)}};
  if (step.lowers()) {
    log::warn("sampler.cpu_budget: over budget, reading the costliest source less often", fields);
  } else {
    log::info("sampler.cpu_budget: under budget again, restoring a source's rate", fields);
  }
}

void Sampler::wake() noexcept {
  // A one-shot expiry 1 ns from now ends the blocking read; run() then sees the stop request.
  const itimerspec soon{{0, 0}, {0, 1}};
  ::timerfd_settime(timer_.get(), 0, &soon, nullptr);
}

void Sampler::use_kernel_ticks(std::unique_ptr<KernelTicks> ticks) {
  if (!ticks || ticks->period() != rate_) {
    throw std::invalid_argument("the kernel tick's period is not the sampler's rate");
  }
  kernel_ticks_ = std::move(ticks);
  stats_.backend = "ebpf";
  // The thread wakes at the rate of its fastest source the tick does not give whole: the others
  // come with every tick, so waking more often would only hand on the same frames sooner.
  uint32_t fastest = 0;
  for (size_t i = 0; i < sources_.size(); ++i) {
    kernel_share_[i] = sources_[i]->kernel_tick_share();
    if (kernel_share_[i] == KernelTickShare::all) continue;
    fastest = fastest == 0 ? configured_every_[i] : std::min(fastest, configured_every_[i]);
  }
  // Bounded so that frames never wait long for the recorder, whatever the sources' rates.
  const uint32_t longest = whole_ticks(kLongestKernelWake, rate_);
  wake_every_ = fastest == 0 ? longest : std::min(fastest, longest);
  // A file source is read only when the thread wakes, and its values serve the frames until its
  // next read: so its period must be a whole number of wake-ups, or some frames would show a value
  // older than its rate. Rounded down (20 ms becomes 16 ms at 8 ms wake-ups), never slower.
  for (size_t i = 0; i < sources_.size(); ++i) {
    if (kernel_share_[i] == KernelTickShare::all) continue;
    const uint32_t every = std::max(wake_every_, configured_every_[i] / wake_every_ * wake_every_);
    configured_every_[i] = every;
    read_every_[i] = every;
    stats_.sources[i]->configured_rate_ns = configured_rate(i).count();
    stats_.sources[i]->rate_ns = configured_rate(i).count();
  }
  if (budget_window_) {
    for (size_t i = 0; i < sources_.size(); ++i) {
      budget_costs_[i].configured_every = configured_every_[i];
      budget_costs_[i].slowest_every =
          std::max(budget_costs_[i].slowest_every, configured_every_[i]);
    }
  }
  kernel_ticks_->wake_every(wake_every_);
  hotplug_guard_ = CpuHotplugGuard(kernel_ticks_->cpu_count());
  kernel_batch_.heads.reserve(kernel_batch_capacity(wake_every_));
  kernel_batch_.cpu_times.reserve(kernel_batch_capacity(wake_every_) * kernel_ticks_->cpu_count());
}

void Sampler::run(FrameQueue& queue, const StopSignal& stop, uint64_t max_ticks) {
  if (kernel_ticks_) {
    run_on_kernel_ticks(queue, stop, max_ticks);
  } else {
    run_on_timer(queue, stop, max_ticks);
  }
}

void Sampler::run_on_timer(FrameQueue& queue, const StopSignal& stop, uint64_t max_ticks) {
  const int64_t period = rate_.count();
  const int64_t armed = now_ns(CLOCK_MONOTONIC);
  const int64_t start = armed + period;
  const itimerspec spec{to_timespec(period), to_timespec(start)};
  if (::timerfd_settime(timer_.get(), TFD_TIMER_ABSTIME, &spec, nullptr) != 0) {
    throw std::system_error(errno, std::generic_category(), "timerfd_settime");
  }

  // A stop requested before the timer was armed had its wake() overwritten by the arming above.
  if (stop.requested()) return;
  if (budget_window_) {
    // The window's first reading: from here on the process's CPU is the running daemon's.
    next_budget_check_ns_ = armed;
    check_budget(armed);
  }

  uint64_t next_tick = 0;  // index of the first deadline not yet consumed
  uint64_t sampled = 0;
  while (max_ticks == 0 || sampled < max_ticks) {
    uint64_t expirations = 0;
    const ssize_t n = ::read(timer_.get(), &expirations, sizeof expirations);
    if (stop.requested()) break;
    if (n != sizeof expirations) {
      if (n < 0 && errno != EINTR) {
        throw std::system_error(errno, std::generic_category(), "read of the sampler timer");
      }
      continue;
    }
    // Several deadlines passed since the last wake-up: sample once, for the newest one.
    const uint64_t tick = next_tick + expirations - 1;
    next_tick = tick + 1;
    stats_.missed_ticks.fetch_add(expirations - 1, std::memory_order_relaxed);

    const int64_t mono = now_ns(CLOCK_MONOTONIC);
    stats_.elapsed_ns.store(mono - armed, std::memory_order_relaxed);
    const int64_t lateness = mono - (start + static_cast<int64_t>(tick) * period);
    stats_.lateness.observe(lateness);
    if (lateness > period / 2) stats_.late_ticks.fetch_add(1, std::memory_order_relaxed);

    const FrameHeader header{tick, mono, now_ns(CLOCK_REALTIME)};
    sample_due(tick, values_);
    if (!queue.push(header, values_)) {
      stats_.queue_overflows.fetch_add(1, std::memory_order_relaxed);
    }
    stats_.ticks.fetch_add(1, std::memory_order_relaxed);
    ++sampled;
    // After the frame is handed on, so a check (and a rare log line) never delays one.
    if (budget_window_ && mono >= next_budget_check_ns_) check_budget(mono);
  }
}

void Sampler::drain_kernel_ticks() {
  kernel_ticks_->drain(kernel_batch_);
  hotplug_guard_.apply(kernel_batch_);
}

void Sampler::push_kernel_tick(size_t index, uint64_t tick, int64_t real_offset_ns,
                               FrameQueue& queue) {
  for (size_t i = 0; i < sources_.size(); ++i) {
    if (kernel_share_[i] == KernelTickShare::none) continue;
    const auto out = std::span(values_).subspan(offsets_[i], offsets_[i + 1] - offsets_[i]);
    sources_[i]->take_kernel_tick(kernel_batch_, index, out);
    if (kernel_share_[i] == KernelTickShare::all) {
      // Not a read of its file, but its values are as fresh as one: counted so that the source's
      // reads and last_ok say it is live.
      SourceStats& s = *stats_.sources[i];
      s.reads.fetch_add(1, std::memory_order_relaxed);
      s.last_ok.store(true, std::memory_order_relaxed);
    }
  }
  const int64_t mono = kernel_batch_.heads[index].mono_ns;
  if (!queue.push({tick, mono, mono + real_offset_ns}, values_)) {
    stats_.queue_overflows.fetch_add(1, std::memory_order_relaxed);
  }
  stats_.ticks.fetch_add(1, std::memory_order_relaxed);
}

void Sampler::run_on_kernel_ticks(FrameQueue& queue, const StopSignal& stop, uint64_t max_ticks) {
  const int64_t period = rate_.count();
  // On the timer's CPU its interrupt wakes this thread there: one wake-up of an idle CPU serves
  // the kernel's tick and this thread's (best effort: elsewhere it still works, at one more).
  cpu_set_t timer_cpu;
  CPU_ZERO(&timer_cpu);
  CPU_SET(kernel_ticks_->timer_cpu(), &timer_cpu);
  static_cast<void>(::sched_setaffinity(0, sizeof timer_cpu, &timer_cpu));
  // The kernel wakes the thread through wait_fd(); wake() fires timer_ to stop it.
  const Fd poll_set(::epoll_create1(EPOLL_CLOEXEC));
  if (!poll_set || !watch(poll_set.get(), kernel_ticks_->wait_fd()) ||
      !watch(poll_set.get(), timer_.get())) {
    throw std::system_error(errno, std::generic_category(), "the sampler's epoll set");
  }
  // Ticks recorded before the start (while the daemon was setting up) are not this run's; the
  // guard still learns each CPU's times from them.
  drain_kernel_ticks();
  const int64_t armed = now_ns(CLOCK_MONOTONIC);
  if (stop.requested()) return;
  // The frames of the first wake-up need every file source's values: read them all now, before
  // any of those ticks fired.
  sample_due(0, values_);
  if (budget_window_) {
    next_budget_check_ns_ = armed;
    check_budget(armed);
  }
  // A wake-up the kernel did not give (its timer stopped) is not waited for beyond this.
  const auto wait_ms = static_cast<int>(std::max<int64_t>(period * wake_every_ * 4 / 1'000'000, 1));

  int64_t origin = -1;  // CLOCK_MONOTONIC of tick 0: the first tick drained
  uint64_t newest = 0;  // the newest tick handed on
  uint64_t sampled = 0;
  while (!stop.requested() && (max_ticks == 0 || sampled < max_ticks)) {
    std::array<epoll_event, 2> ready{};
    if (::epoll_wait(poll_set.get(), ready.data(), ready.size(), wait_ms) < 0 && errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "epoll_wait of the sampler");
    }
    if (stop.requested()) break;
    drain_kernel_ticks();
    const int64_t mono = now_ns(CLOCK_MONOTONIC);
    const int64_t real_offset = now_ns(CLOCK_REALTIME) - mono;
    for (size_t i = 0; i < kernel_batch_.heads.size(); ++i) {
      if (max_ticks != 0 && sampled == max_ticks) break;
      const int64_t fired = kernel_batch_.heads[i].mono_ns;
      if (origin < 0) origin = fired;
      // The tick's number on the grid of the first one: a firing the kernel did not record (its
      // buffer full) or never made (a stolen CPU) leaves a gap, counted as missed.
      const int64_t since = fired - origin;
      const auto tick = static_cast<uint64_t>(std::max<int64_t>(since + period / 2, 0) / period);
      if (sampled > 0 && tick <= newest) continue;  // two firings within one period: keep one
      if (sampled > 0) stats_.missed_ticks.fetch_add(tick - newest - 1, std::memory_order_relaxed);
      newest = tick;
      const int64_t lateness = since - static_cast<int64_t>(tick) * period;
      stats_.lateness.observe(std::max<int64_t>(lateness, 0));
      if (lateness > period / 2) stats_.late_ticks.fetch_add(1, std::memory_order_relaxed);
      push_kernel_tick(i, tick, real_offset, queue);
      ++sampled;
      // Tick 0 fired one period after the (virtual) arming, as the timer's first tick does.
      stats_.elapsed_ns.store(since + period, std::memory_order_relaxed);
    }
    // The file sources due now: their values go into the frames of the ticks after this read.
    sample_due(newest, values_);
    if (budget_window_ && mono >= next_budget_check_ns_) check_budget(mono);
  }
}

}  // namespace flightrec::sampler
