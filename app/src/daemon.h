#pragma once
// The daemon's composition: every component of a running flightrec, built in dependency order
// from one configuration, wired together, and the threads that run them. The only place that
// knows them all; each component contributes its own routes and metric families.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/app/cli.h"
#include "flightrec/app/config_reload.h"
#include "flightrec/app/setup.h"
#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exposition/collectable.h"
#include "flightrec/http/server.h"
#include "flightrec/incidents/incident_file_sink.h"
#include "flightrec/incidents/incident_store.h"
#include "flightrec/recorder/container_recorder.h"
#include "flightrec/recorder/process_recorder.h"
#include "flightrec/recorder/recorder.h"
#include "flightrec/recording/metadata.h"
#include "flightrec/sampler/sampler.h"
#include "flightrec/store/container_ring.h"
#include "flightrec/store/process_ring.h"
#include "flightrec/store/ring.h"
#include "flightrec/trigger/alert_receiver.h"
#include "flightrec/trigger/capturer.h"
#include "flightrec/trigger/container_directory.h"
#include "flightrec/trigger/container_triggers.h"
#include "flightrec/trigger/engine.h"
#include "flightrec/trigger/manual_gate.h"
#include "flightrec/trigger/oom_victims.h"
#include "flightrec/trigger/writer.h"

namespace flightrec::app {

class Daemon {
 public:
  // Builds and wires every component and starts serving HTTP; throws on a set-up error (a rule
  // naming a signal this host lacks, an address that cannot be bound), which main reports.
  Daemon(const Command& command, const Setup& setup);
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  // Samples and records until SIGINT/SIGTERM arrives on `signal_fd` or a thread fails; returns
  // the exit status (1 when a thread failed). SIGHUP reloads the configuration.
  int run(int signal_fd);

  // Re-reads the configuration as it was found at start-up (the --config.file, or the lookup
  // again) and applies what can change live (config_reload.h), all or nothing: every part (rules,
  // TLS context, roles, alert filters) is built before any is installed, so an invalid file, a web
  // config whose certificate does not load, roles naming unknown users or rules naming signals
  // this host lacks change nothing. The failure's message is every error, a line each; either
  // outcome is logged and shown in /metrics. Any thread; reloads run one at a time.
  Status reload(std::string_view cause);

 private:
  [[nodiscard]] recording::Metadata metadata_now() const;
  Error reload_failed(std::string_view cause, const std::vector<std::string>& errors);
  void apply_live(const config::Config& effective, const std::string& origin);
  void start_process_tier(const Command& command);
  void open_container_tier(const Command& command);
  std::string use_throttle_episodes();
  void watch_oom_victims();
  void watch_containers();
  void add_collectors();
  // Whether the incident store holds an alert incident of this episode (trigger::StoredEpisode),
  // so that a notification re-sent after a restart does not capture again.
  [[nodiscard]] bool alert_episode_stored(const std::string& key) const;
  http::Router router();
  http::Route reload_route();

  const Command command_;
  const config::Config& cfg_;  // as loaded at start-up: what the components were built with
  const int64_t start_real_ns_;
  const std::string host_;
  // Every incident and raw dump says how it was recorded: the config as loaded (or last reloaded),
  // and its origin.
  mutable std::mutex provenance_mutex_;
  recording::Labels provenance_;  // guarded by provenance_mutex_
  sampler::Sampler sampler_;
  sampler::FrameQueue queue_;
  store::Ring ring_;
  recorder::Recorder recorder_;
  trigger::TriggerEngine engine_;
  incidents::IncidentStore incident_store_;
  // The process tier keeps the same history as the system ring in a quarter of its byte bound.
  store::ProcessRing process_ring_;
  std::unique_ptr<recorder::ProcessRecorder> process_tier_;  // null when processes are off
  std::unique_ptr<exporter::metrics::ProcessMetrics> process_metrics_;
  // The container tier's history: buffer.duration in an eighth of buffer.max_bytes (a named
  // container takes ~300 bytes a slow round; docs/CONTAINERS.md "Container frames").
  store::ContainerRing container_ring_;
  // Null when containers are off or the cgroup root has no hierarchy (logged once at start-up).
  std::unique_ptr<recorder::ContainerRecorder> container_tier_;
  exporter::metrics::ContainerCollector* container_collector_ = nullptr;
  incidents::IncidentFileSink incident_sink_;
  // The containers seen lately, fed by the container tier: alert scope and OOM victims' containers
  // ask it; before oom_victim_namer_ and alert_receiver_, which hold it.
  trigger::ContainerDirectory container_directory_;
  trigger::oom::KernelLog kernel_log_;  // names OOM victims (trigger/oom_victims.h)
  trigger::OomVictimNamer oom_victim_namer_;
  // Before incident_writer_, whose destructor writes the incidents and makes the revisions still
  // queued and tells the receiver their outcomes; before capturer_, which takes its requests.
  trigger::AlertReceiver alert_receiver_;
  trigger::IncidentWriter incident_writer_;
  // Container rules, run on the container tier's reads; before capturer_, which takes its requests.
  trigger::ContainerTriggers container_triggers_;
  trigger::IncidentCapturer capturer_;
  trigger::ManualTriggerGate manual_gate_;
  // The web server's counts, which its collector reads: made before the server is.
  std::shared_ptr<http::ServerStats> http_stats_ = std::make_shared<http::ServerStats>();
  exposition::Collectables collectables_;
  exporter::metrics::ScrapeCollector* scrapes_ = nullptr;
  ReloadStatus* reload_status_ = nullptr;
  std::atomic<uint64_t> max_dump_bytes_;  // web.max_dump_bytes, live: /dump reads it per request
  std::mutex reload_mutex_;
  config::Config running_;                // guarded by reload_mutex_: the settings in effect
  std::unique_ptr<http::Server> server_;  // last: destroyed first, before what it serves
};

}  // namespace flightrec::app
