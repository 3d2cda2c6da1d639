#include "flightrec/recorder/container_recorder.h"

#include <poll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <functional>
#include <limits>
#include <system_error>
#include <unordered_set>
#include <utility>

#include "flightrec/common/clock.h"
#include "flightrec/common/fd.h"
#include "flightrec/common/log.h"
#include "flightrec/common/open_file_limit.h"
#include "flightrec/recorder/containers/fast_tier.h"
#include "flightrec/recorder/containers/full_reads.h"

namespace flightrec::recorder {
namespace {

using container::ContainerRef;
using container::kUnlimited;
using container::Runtime;
using containers::ContainerInfo;
using containers::CpuReading;
using sampler::kAbsent;

std::chrono::milliseconds whole_ms(std::chrono::nanoseconds duration) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(duration);
}

// The names settings of containers.names.*: each runtime's own directory, as its configuration
// calls it, and the files the NameResolver reads beneath it.
container::names::NameSettings name_settings(const config::Config::Containers::Names& names) {
  const std::filesystem::path kubelet_logs = names.kubelet_logs;
  const std::filesystem::path storage_root = names.storage_root;
  const std::filesystem::path storage_run_root = names.storage_run_root;
  container::names::NameSettings settings;
  settings.root = names.root;
  settings.container_logs = kubelet_logs / "containers";
  settings.pod_logs = kubelet_logs / "pods";
  settings.docker_containers = std::filesystem::path(names.docker_root) / "containers";
  settings.storage_containers = {storage_root / "overlay-containers",
                                 storage_run_root / "overlay-containers"};
  settings.containerd_tasks =
      std::filesystem::path(names.containerd_state) / "io.containerd.runtime.v2.task/k8s.io";
  settings.rescan_period = whole_ms(names.rescan_interval);
  settings.grace_period = whole_ms(names.grace_period);
  return settings;
}

// Whether the runtime's id is one the runtimes' files know (64 hex digits): a systemd unit or a
// regex match has no names to look up.
bool nameable(Runtime runtime) { return runtime != Runtime::systemd && runtime != Runtime::custom; }

CpuReading cpu_reading(const container::CpuStat& cpu, int64_t at_ns) {
  return {.at_ns = at_ns,
          .usage_us = cpu.usage_us,
          .periods = cpu.periods,
          .throttled_periods = cpu.throttled_periods,
          .throttled_us = cpu.throttled_us};
}

std::optional<double> memory_fill(const container::MemoryStats& memory) {
  if (memory.usage_bytes == kAbsent || memory.limit_bytes == kAbsent ||
      memory.limit_bytes == kUnlimited || memory.limit_bytes <= 0) {
    return std::nullopt;
  }
  return static_cast<double>(memory.usage_bytes) / static_cast<double>(memory.limit_bytes);
}

// Whether the container's cgroup is still there: a read that fails because it was removed is
// no news (discovery drops it at its next walk), one that fails while it exists is.
bool cgroup_exists(const ContainerRef& ref) {
  for (const auto& dir : ref.dirs) {
    std::error_code ignored;
    if (!dir.empty()) return std::filesystem::exists(dir, ignored);
  }
  return false;
}

// The round after one due at `due` and run at `now_ns`: a period later, or a period after now
// when the thread fell that far behind (the rounds missed are not made up).
int64_t next_due(int64_t due, std::chrono::nanoseconds period, int64_t now_ns) {
  const int64_t next = due + period.count();
  return next > now_ns ? next : now_ns + period.count();
}

}  // namespace

ContainerTierSettings container_tier_settings(const config::Config& config) {
  const auto& c = config.containers;
  ContainerTierSettings settings;
  settings.rate = c.rate;
  settings.fast_rate = c.fast_rate;
  settings.fast_max = c.fast_max;
  settings.detail_rate = c.detail_rate;
  settings.discovery_interval = c.discovery_interval;
  settings.window = config.export_.window;
  settings.match = {.runtimes = c.match.runtimes,
                    .kubepods = c.match.kubepods,
                    .systemd_services = c.match.systemd_services,
                    .path_regex = c.match.path_regex};
  settings.limits.max_containers = c.max;
  settings.throttle_episodes = c.throttle_episodes != "off";
  if (c.names.enabled) settings.names = name_settings(c.names);
  return settings;
}

Result<std::unique_ptr<ContainerRecorder>> ContainerRecorder::open(ContainerTierSettings settings,
                                                                   const sampler::ProcRoot& root) {
  // A dozen or more files per container stay open: beyond the default soft limit at ~70.
  static_cast<void>(raise_open_file_limit());
  Result<container::CgroupLayout> layout = container::detect_cgroup_layout(root);
  if (!layout) return Error{std::move(layout).error()};
  Result<container::ContainerMatcher> matcher = container::ContainerMatcher::create(settings.match);
  if (!matcher) return Error{std::move(matcher).error()};
  container::ContainerDiscovery discovery(std::move(*layout), std::move(*matcher), settings.limits);
  return std::unique_ptr<ContainerRecorder>(
      new ContainerRecorder(std::move(settings), std::move(discovery)));
}

ContainerRecorder::ContainerRecorder(ContainerTierSettings settings,
                                     container::ContainerDiscovery discovery)
    : settings_(std::move(settings)),
      discovery_(std::move(discovery)),
      window_ns_(settings_.window.count()),
      // The fast tier's period, or without one the slow tier's.
      tick_(settings_.fast_max > 0 ? settings_.fast_rate : settings_.rate),
      full_read_every_(containers::full_read_every(settings_.rate, settings_.detail_rate)),
      snapshot_(std::make_shared<containers::ContainerTierSnapshot>(
          containers::ContainerTierSnapshot{.mode = discovery_.layout().mode})) {
  if (settings_.names) {
    names_ = std::make_unique<container::names::NameResolver>(*settings_.names);
  }
  if (discovery_.layout().mode == container::CgroupMode::unified) {
    Result<container::EventsWatch> watch = container::EventsWatch::create();
    if (watch) {
      events_watch_.emplace(std::move(*watch));
    } else {
      log::warn("container memory.events read at every round", {{"reason", watch.error()}});
    }
  }
}

void ContainerRecorder::run(const StopSignal& stop) {
  Fd timer(::timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC));
  if (!timer.valid()) throw std::system_error(errno, std::generic_category(), "timerfd_create");
  pollfd fds[2] = {{timer.get(), POLLIN, 0}, {stop.fd(), POLLIN, 0}};
  int64_t next_fast_ns = std::numeric_limits<int64_t>::min();
  while (!stop.requested()) {
    const int64_t now_ns = clock_ns(CLOCK_MONOTONIC);
    tick(now_ns);
    // The thread wakes for the fast tier only while it has containers (throttled, near their
    // limit or busy), and for slow rounds only while there are containers to read: on a host
    // without any, once per walk (whose slow round then publishes that none is left).
    constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
    // The fast round's due time is kept while the tier is empty, never set to kNever: advancing
    // from kNever would overflow, and from an old due time next_due restarts a tick from now.
    if (!fast_.empty()) next_fast_ns = next_due(next_fast_ns, tick_, now_ns);
    const int64_t fast_ns = fast_.empty() ? kNever : next_fast_ns;
    const int64_t slow_ns = tracked_.empty() ? kNever : next_slow_ns_;
    const int64_t wake_ns = std::min({slow_ns, next_discovery_ns_, fast_ns});
    itimerspec spec{};
    spec.it_value.tv_sec = wake_ns / 1'000'000'000;
    spec.it_value.tv_nsec = wake_ns % 1'000'000'000;
    if (::timerfd_settime(timer.get(), TFD_TIMER_ABSTIME, &spec, nullptr) != 0) {
      throw std::system_error(errno, std::generic_category(), "timerfd_settime");
    }
    // Thrown, not a silent break: the daemon's guarded thread logs it and stops, rather than
    // serving a tier that no longer reads.
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "poll on the container-tier timer");
    }
    uint64_t expirations = 0;
    if ((fds[0].revents & POLLIN) != 0) {
      static_cast<void>(::read(timer.get(), &expirations, sizeof expirations));
    }
    if (clock_ns(CLOCK_MONOTONIC) - wake_ns > tick_.count()) {
      stats_.late_ticks_total.fetch_add(1, std::memory_order_relaxed);
    }
  }
}

void ContainerRecorder::tick(int64_t now_ns) {
  // Frames and fast reads carry wall time; the rounds run on the monotonic clock (tests give their
  // own), so each is converted with the clocks' offset as of now.
  real_offset_ns_ = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);
  // Every tick, so the kernel's buffer never fills while the slow rounds are a second apart.
  if (episodes_) episodes_->drain(drained_);
  // Due by the clock, not by counting ticks, so a late tick does not shift every later round; half
  // a tick early counts as on time, as the timer's ticks jitter around the due time.
  const int64_t due_by = now_ns + tick_.count() / 2;
  if (due_by >= next_discovery_ns_) {
    discover(now_ns);
    next_discovery_ns_ = next_due(next_discovery_ns_, settings_.discovery_interval, now_ns);
  }
  if (due_by >= next_slow_ns_) {
    slow_round(now_ns);
    next_slow_ns_ = next_due(next_slow_ns_, settings_.rate, now_ns);
  } else if (!fast_.empty()) {
    fast_round(now_ns);
  }
  read_failures_.flush();
  discovery_failures_.flush();
  frame_failures_.flush();
}

void ContainerRecorder::discover(int64_t now_ns) {
  const int64_t started = clock_ns(CLOCK_MONOTONIC);
  Result<container::DiscoveryChanges> changes = discovery_.refresh();
  stats_.last_discovery_ns.store(clock_ns(CLOCK_MONOTONIC) - started, std::memory_order_relaxed);
  stats_.discoveries_total.fetch_add(1, std::memory_order_relaxed);
  if (!changes) {
    stats_.discovery_failures_total.fetch_add(1, std::memory_order_relaxed);
    discovery_failures_.note(changes.error());
    return;
  }
  untracked_ = changes->untracked;
  if (!changes->removed.empty()) {
    std::unordered_set<std::string> removed;
    for (const ContainerRef& ref : changes->removed) removed.insert(ref.path);
    std::erase_if(tracked_, [&](const Tracked& t) {
      if (!removed.contains(t.info->ref.path)) return false;
      if (events_watch_ && t.memory_events_watch >= 0) events_watch_->remove(t.memory_events_watch);
      return true;
    });
  }
  for (ContainerRef& ref : changes->added) {
    const auto at = std::lower_bound(
        tracked_.begin(), tracked_.end(), ref.path,
        [](const Tracked& t, const std::string& path) { return t.info->ref.path < path; });
    Tracked added;
    added.full_read_phase = std::hash<std::string>{}(ref.path) % full_read_every_;
    added.info = std::make_shared<const ContainerInfo>(ContainerInfo{.ref = std::move(ref)});
    tracked_.insert(at, std::move(added));
  }
  // The indices moved: the fast tier is kept by its flags and found again.
  fast_.clear();
  const bool name_all = now_ns >= next_full_naming_ns_;
  if (name_all && settings_.names) {
    next_full_naming_ns_ =
        now_ns + std::chrono::nanoseconds(settings_.names->rescan_period).count();
  }
  for (size_t i = 0; i < tracked_.size(); ++i) {
    Tracked& t = tracked_[i];
    if (!t.reader) {
      Result<container::ContainerReader> reader =
          container::ContainerReader::open(t.info->ref, discovery_.layout().mode);
      if (reader) {
        t.reader.emplace(std::move(*reader));
        watch_memory_events(t);
      } else if (cgroup_exists(t.info->ref)) {
        read_failures_.note(reader.error());
      }
    }
    // The unnamed at every walk (a lookup that misses looks at the sources at most once a
    // second), every container at each names.rescan_interval: names change, containers go.
    if (names_ && nameable(t.info->ref.identity.runtime) &&
        (name_all || t.info->names.id.empty())) {
      name(t);
    }
    if (t.signals.fast) fast_.push_back(i);
  }
  if (names_) {
    for (const std::string& problem : names_->take_problems()) {
      log::warn("container names: a file could not be used", {{"problem", problem}});
    }
  }
}

void ContainerRecorder::name(Tracked& tracked) {
  const auto& identity = tracked.info->ref.identity;
  std::optional<container::names::ContainerNames> names =
      names_->resolve(identity.id, identity.pod_uid);
  if (!names || *names == tracked.info->names) return;
  tracked.info = std::make_shared<const ContainerInfo>(
      ContainerInfo{.ref = tracked.info->ref, .names = std::move(*names)});
}

void ContainerRecorder::take_read(Tracked& t, int64_t now_ns) {
  const int64_t window_ns = window_ns_.load(std::memory_order_relaxed);
  const CpuReading now = cpu_reading(t.stats.cpu, now_ns);
  if (containers::throttled_between(t.last_cpu, now)) t.throttled_in_round = true;
  if (auto share = containers::throttled_share(t.last_cpu, now, t.stats.bandwidth.period_us)) {
    t.signals.throttled_share = share;
    t.share_max.add(now_ns, *share, window_ns);
    t.round_share_max = std::max(t.round_share_max, *share);
  }
  t.last_cpu = now;
  if (t.stats.memory.usage_bytes != kAbsent) {
    t.memory_max.add(now_ns, static_cast<double>(t.stats.memory.usage_bytes), window_ns);
  }
}

void ContainerRecorder::slow_round(int64_t now_ns) {
  const int64_t cpu_started = clock_ns(CLOCK_THREAD_CPUTIME_ID);
  take_memory_event_changes();
  uint64_t reads = 0;
  for (Tracked& t : tracked_) {
    if (!t.reader) continue;
    const Status read = slow_read(t);
    ++reads;
    t.read_ok = read.ok();
    if (!read) {
      stats_.read_failures_total.fetch_add(1, std::memory_order_relaxed);
      if (cgroup_exists(t.info->ref)) read_failures_.note(read.error());
    }
    take_read(t, now_ns);
    const CpuReading& now = t.last_cpu;
    t.signals.cpu_cores = containers::cpu_cores(t.slow_cpu, now);
    t.signals.throttled_periods_ratio = containers::throttled_periods_ratio(t.slow_cpu, now);
    t.signals.memory_fill = memory_fill(t.stats.memory);
    t.slow_cpu = now;
  }
  stats_.slow_read_cpu_ns_total.fetch_add(clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu_started,
                                          std::memory_order_relaxed);
  stats_.slow_reads_total.fetch_add(reads, std::memory_order_relaxed);
  stats_.slow_rounds_total.fetch_add(1, std::memory_order_relaxed);
  ++slow_round_index_;
  observe_round(now_ns, true);
  choose_fast_tier();
  publish(now_ns);
}

Status ContainerRecorder::slow_read(Tracked& t) {
  const container::MemoryEvents events_before = t.stats.memory.events;
  Status read =
      t.reader->read_counters(t.stats, t.memory_events_watch < 0 || t.memory_events_changed);
  t.memory_events_changed = false;
  const containers::FullReadCandidate candidate{
      .read_before = t.read_in_full,
      .fast = t.signals.fast,
      .memory_fill = t.signals.memory_fill.value_or(0),
      .events_changed = t.read_in_full && t.stats.memory.events != events_before};
  if (!containers::full_read_due(candidate, slow_round_index_, full_read_every_,
                                 t.full_read_phase)) {
    return read;
  }
  Status details = t.reader->read_details(t.stats);
  t.read_in_full = true;
  stats_.full_reads_total.fetch_add(1, std::memory_order_relaxed);
  if (!read) return read;
  return details;
}

void ContainerRecorder::watch_memory_events(Tracked& t) {
  if (!events_watch_) return;
  const auto path = t.reader->file_path(container::CgroupFile::memory_events);
  if (!path) return;
  Result<int> watch = events_watch_->add(*path);
  if (!watch) {
    read_failures_.note(watch.error());  // it is read at every round instead
    return;
  }
  t.memory_events_watch = *watch;
  t.memory_events_changed = true;  // never read yet
}

void ContainerRecorder::take_memory_event_changes() {
  if (!events_watch_) return;
  const std::vector<int> changed = events_watch_->take_changed();
  if (changed.empty()) return;
  const std::unordered_set<int> watches(changed.begin(), changed.end());
  for (Tracked& t : tracked_) {
    if (watches.contains(t.memory_events_watch)) t.memory_events_changed = true;
  }
}

void ContainerRecorder::choose_fast_tier() {
  std::vector<containers::FastCandidate> candidates;
  candidates.reserve(tracked_.size());
  for (Tracked& t : tracked_) {
    candidates.push_back({.throttled = t.throttled_in_round,
                          .throttled_share = t.round_share_max,
                          .memory_fill = t.signals.memory_fill.value_or(0),
                          .cpu_cores = t.reader ? t.signals.cpu_cores.value_or(0) : 0});
    t.throttled_in_round = false;
    t.round_share_max = 0;
    t.signals.fast = false;
  }
  fast_ = containers::choose_fast_tier(candidates, settings_.fast_max);
  for (size_t i : fast_) tracked_[i].signals.fast = true;
}

void ContainerRecorder::fast_round(int64_t now_ns) {
  const int64_t cpu_started = clock_ns(CLOCK_THREAD_CPUTIME_ID);
  for (size_t i : fast_) {
    Tracked& t = tracked_[i];
    // The memory usage of those near their limit only: the others are here for their CPU.
    const bool near_limit = t.signals.memory_fill.value_or(0) > containers::kFastMemoryFill;
    if (const Status read = t.reader->read_fast(t.stats, near_limit); !read) {
      stats_.read_failures_total.fetch_add(1, std::memory_order_relaxed);
      continue;  // the slow round says whether it is gone, and warns if not
    }
    take_read(t, now_ns);
    if (ring_ != nullptr) {
      fast_reads_.push_back({.info = t.info,
                             .read = {.time_unix_ns = now_ns + real_offset_ns_,
                                      .usage_us = t.stats.cpu.usage_us,
                                      .periods = t.stats.cpu.periods,
                                      .throttled_periods = t.stats.cpu.throttled_periods,
                                      .throttled_us = t.stats.cpu.throttled_us,
                                      // Not read for one here for its CPU: left absent, not the
                                      // slow round's value repeated.
                                      .memory_usage_bytes = near_limit ? t.stats.memory.usage_bytes
                                                                       : sampler::kAbsent}});
    }
  }
  observe_round(now_ns, false);
  stats_.fast_read_cpu_ns_total.fetch_add(clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu_started,
                                          std::memory_order_relaxed);
  stats_.fast_reads_total.fetch_add(fast_.size(), std::memory_order_relaxed);
  stats_.fast_rounds_total.fetch_add(1, std::memory_order_relaxed);
}

void ContainerRecorder::publish(int64_t now_ns) {
  auto snapshot = std::make_shared<containers::ContainerTierSnapshot>();
  snapshot->mono_ns = now_ns;
  snapshot->mode = discovery_.layout().mode;
  snapshot->untracked = untracked_;
  snapshot->containers.reserve(tracked_.size());
  const int64_t window_ns = window_ns_.load(std::memory_order_relaxed);
  for (Tracked& t : tracked_) {
    t.signals.throttled_share_max = t.share_max.max(now_ns, window_ns);
    t.signals.memory_usage_max = t.memory_max.max(now_ns, window_ns);
    snapshot->containers.push_back(
        {.info = t.info, .stats = t.stats, .read_ok = t.read_ok, .signals = t.signals});
  }
  if (ring_ != nullptr) record_frame(*snapshot);
  // Whether recorded or not: what the round drained is not kept for the next one.
  fast_reads_.clear();
  drained_.clear();
  const std::lock_guard lock(snapshot_mutex_);
  snapshot_ = std::move(snapshot);
}

void ContainerRecorder::record_frame(const containers::ContainerTierSnapshot& snapshot) {
  const container::ContainerFrame frame =
      containers::make_container_frame({.snapshot = snapshot,
                                        .time_unix_ns = snapshot.mono_ns + real_offset_ns_,
                                        .fast_reads = fast_reads_,
                                        .episodes = drained_,
                                        .episodes_recorded = episodes_ != nullptr});
  if (const Status pushed = ring_->push(frame); !pushed) frame_failures_.note(pushed.error());
}

void ContainerRecorder::observe_round(int64_t now_ns, bool slow) {
  if (!round_observer_) return;
  round_reads_.clear();
  const auto add = [&](const Tracked& t) {
    if (t.reader && t.read_ok) round_reads_.push_back({t.info, &t.stats});
  };
  if (slow) {
    for (const Tracked& t : tracked_) add(t);
  } else {
    for (size_t i : fast_) add(tracked_[i]);
  }
  round_observer_({.mono_ns = now_ns, .slow = slow, .reads = round_reads_});
}

std::shared_ptr<const containers::ContainerTierSnapshot> ContainerRecorder::snapshot() const {
  const std::lock_guard lock(snapshot_mutex_);
  return snapshot_;
}

std::optional<container::names::NameStats> ContainerRecorder::name_stats() const {
  if (!names_) return std::nullopt;
  return names_->stats();
}

}  // namespace flightrec::recorder
