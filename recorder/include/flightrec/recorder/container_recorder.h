#pragma once
// The container tier's recorder, beside the process tier's: its own thread walks the cgroup
// hierarchy for containers every discovery_interval, reads every tracked container at
// containers.rate (the slow round) and the few the slow round chose at containers.fast_rate (the
// fast tier: the CPU counters and memory usage), keeps what the reads derive (cpu_signals.h), names
// the containers through the NameResolver, and publishes a snapshot after each slow round for
// readers, who never block it. docs/CONTAINERS.md "How often each container is read".
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "flightrec/common/limited_warning.h"
#include "flightrec/common/result.h"
#include "flightrec/common/stop_signal.h"
#include "flightrec/config/config.h"
#include "flightrec/container/cgroups/container_discovery.h"
#include "flightrec/container/cgroups/container_reader.h"
#include "flightrec/container/cgroups/events_watch.h"
#include "flightrec/container/names/name_resolver.h"
#include "flightrec/container/throttle/episode_recorder.h"
#include "flightrec/recorder/containers/container_history.h"
#include "flightrec/recorder/containers/container_recorder_stats.h"
#include "flightrec/recorder/containers/container_round.h"
#include "flightrec/recorder/containers/container_snapshot.h"
#include "flightrec/recorder/containers/cpu_signals.h"
#include "flightrec/recorder/containers/window_max.h"
#include "flightrec/sampler/proc_root.h"
#include "flightrec/store/container_ring.h"

namespace flightrec::recorder {

struct ContainerTierSettings {
  std::chrono::nanoseconds rate = std::chrono::milliseconds(100);
  std::chrono::nanoseconds fast_rate = std::chrono::milliseconds(10);
  size_t fast_max = 16;
  // How often a container's every file is read; the slow rounds between read its counters.
  std::chrono::nanoseconds detail_rate = std::chrono::seconds(10);
  std::chrono::nanoseconds discovery_interval = std::chrono::seconds(1);
  // export.window: the span of each container's largest throttled share.
  std::chrono::nanoseconds window = std::chrono::seconds(15);
  container::MatchSettings match;
  container::DiscoveryLimits limits;
  // Where names come from; nothing: containers are not named (containers.names.enabled).
  std::optional<container::names::NameSettings> names;
  // containers.throttle_episodes: whether the daemon tries to load the eBPF episode recorder.
  bool throttle_episodes = true;
};

// The containers.* keys (and export.window) as the tier's settings.
[[nodiscard]] ContainerTierSettings container_tier_settings(const config::Config& config);

class ContainerRecorder {
 public:
  // Finds the cgroup hierarchy under root.cgroupfs and compiles the matcher: an error saying why
  // when there is no hierarchy or the path regex does not compile. Nothing is read yet.
  static Result<std::unique_ptr<ContainerRecorder>> open(ContainerTierSettings settings,
                                                         const sampler::ProcRoot& root);
  ContainerRecorder(const ContainerRecorder&) = delete;
  ContainerRecorder& operator=(const ContainerRecorder&) = delete;

  // Before run(): each slow round then pushes its frame (container_history.h) into `ring`, which
  // must outlive the recorder.
  void record_into(store::ContainerRing& ring) { ring_ = &ring; }
  // Before run(): the kernel's throttling episodes, drained every tick and attached to the
  // frames; without one, frames say that they hold none.
  void use_episode_recorder(std::unique_ptr<container::EpisodeRecorder> episodes) {
    episodes_ = std::move(episodes);
  }

  // Reads until `stop` is requested, waking on a timerfd for each walk and slow round, and at the
  // fast rate while the fast tier has containers.
  void run(const StopSignal& stop);

  // One tick's work at `now_ns` (CLOCK_MONOTONIC): the walk and slow round when due, else the
  // fast round.
  // run() calls it; tests call it with their own times.
  void tick(int64_t now_ns);

  // The newest snapshot (any thread); an empty one before the first slow round.
  [[nodiscard]] std::shared_ptr<const containers::ContainerTierSnapshot> snapshot() const;
  [[nodiscard]] const containers::ContainerRecorderStats& stats() const noexcept { return stats_; }
  // The name sources' counters; nothing when containers are not named.
  [[nodiscard]] std::optional<container::names::NameStats> name_stats() const;
  [[nodiscard]] container::CgroupMode mode() const noexcept { return discovery_.layout().mode; }
  // Before run(): hands each round's reads to `observer` on the tier's thread (container_round.h).
  void set_round_observer(containers::RoundObserver observer) {
    round_observer_ = std::move(observer);
  }
  // Any thread (a configuration reload): the span of the throttled-share maximum.
  void set_window(std::chrono::nanoseconds window) {
    window_ns_.store(window.count(), std::memory_order_relaxed);
  }

 private:
  struct Tracked {
    std::shared_ptr<const containers::ContainerInfo> info;
    std::optional<container::ContainerReader> reader;  // none while it could not be opened
    container::CgroupStats stats;
    bool read_ok = false;
    bool read_in_full = false;     // had a read of every file since it was found
    uint64_t full_read_phase = 0;  // which of the slow rounds reads it in full (full_reads.h)
    // v2: the watch of its memory.events (-1: none, read at every round), and whether the
    // kernel said it changed since the last read.
    int memory_events_watch = -1;
    bool memory_events_changed = false;
    containers::CpuReading last_cpu;  // the newest read, of either tier
    containers::CpuReading slow_cpu;  // the last slow round's
    containers::ContainerSignals signals;
    containers::WindowMax share_max;
    containers::WindowMax memory_max;  // of the memory usage, in bytes
    // Since the last slow round: whether nr_throttled grew and the largest share resolved.
    bool throttled_in_round = false;
    double round_share_max = 0;
  };

  ContainerRecorder(ContainerTierSettings settings, container::ContainerDiscovery discovery);
  void discover(int64_t now_ns);
  void name(Tracked& tracked);
  void slow_round(int64_t now_ns);
  // One container's slow read: its counters, and every file when full_read_due says so.
  Status slow_read(Tracked& tracked);
  // v2: watches a newly opened container's memory.events, so slow rounds read it only on change.
  void watch_memory_events(Tracked& tracked);
  // Marks the containers whose memory.events the kernel said changed since the last round.
  void take_memory_event_changes();
  void fast_round(int64_t now_ns);
  // Folds one read's CPU counters and memory usage into the container's signals.
  void take_read(Tracked& tracked, int64_t now_ns);
  void choose_fast_tier();
  // Publishes the round's snapshot and, with a ring, pushes its frame.
  void publish(int64_t now_ns);
  void record_frame(const containers::ContainerTierSnapshot& snapshot);
  // Hands the reads of the round just made to the round observer, if any.
  void observe_round(int64_t now_ns, bool slow);

  ContainerTierSettings settings_;
  container::ContainerDiscovery discovery_;
  std::unique_ptr<container::names::NameResolver> names_;  // null when not named
  std::atomic<int64_t> window_ns_;
  std::chrono::nanoseconds tick_;
  uint64_t full_read_every_;  // slow rounds from one full read of a container to the next
  uint64_t slow_round_index_ = 0;
  std::optional<container::EventsWatch> events_watch_;  // v2 only, when inotify is there
  // When the next slow round and walk are due (CLOCK_MONOTONIC); the first tick does both.
  int64_t next_slow_ns_ = std::numeric_limits<int64_t>::min();
  int64_t next_discovery_ns_ = std::numeric_limits<int64_t>::min();
  int64_t next_full_naming_ns_ = 0;
  std::vector<Tracked> tracked_;  // by cgroup path, as discovery keeps them
  std::vector<size_t> fast_;      // indices into tracked_ of the fast tier
  size_t untracked_ = 0;
  containers::ContainerRecorderStats stats_;
  log::LimitedWarning read_failures_{"container reads failed"};
  log::LimitedWarning discovery_failures_{"container discovery failed"};
  log::LimitedWarning frame_failures_{"container frame not recorded"};
  // History (record_into): what the next frame adds to the round's reads.
  store::ContainerRing* ring_ = nullptr;
  std::unique_ptr<container::EpisodeRecorder> episodes_;
  int64_t real_offset_ns_ = 0;  // CLOCK_REALTIME - CLOCK_MONOTONIC as of the current tick
  std::vector<containers::PendingFastRead> fast_reads_;
  std::vector<container::ThrottleEpisode> drained_;
  containers::RoundObserver round_observer_;
  std::vector<containers::ContainerRead> round_reads_;  // reused by observe_round
  mutable std::mutex snapshot_mutex_;
  std::shared_ptr<const containers::ContainerTierSnapshot> snapshot_;  // guarded
};

}  // namespace flightrec::recorder
