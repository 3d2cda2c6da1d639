#include "daemon.h"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <fstream>
#include <iostream>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "app_routes.h"
#include "flightrec/app/commands.h"
#include "flightrec/app/landing_page.h"
#include "flightrec/app/setup.h"
#include "flightrec/common/fd.h"
#include "flightrec/common/log.h"
#include "flightrec/common/stop_signal.h"
#include "flightrec/common/thread_priority.h"
#include "flightrec/common/version.h"
#include "flightrec/config/loader.h"
#include "flightrec/config/units.h"
#include "flightrec/container/throttle/episode_recorder.h"
#include "flightrec/dump/dump_route.h"
#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exporter/metrics/metrics_route.h"
#include "flightrec/http/request.h"
#include "flightrec/http/server.h"
#include "flightrec/http/web_config.h"
#include "flightrec/incidents/incident_file_sink.h"
#include "flightrec/incidents/incident_id.h"
#include "flightrec/incidents/incident_store.h"
#include "flightrec/incidents/incidents_collector.h"
#include "flightrec/incidents/list_page.h"
#include "flightrec/incidents/routes.h"
#include "flightrec/incidents/stored_file.h"
#include "flightrec/recorder/container_recorder.h"
#include "flightrec/recorder/heap_trim.h"
#include "flightrec/recorder/process_recorder.h"
#include "flightrec/recorder/recorder.h"
#include "flightrec/recording/metadata.h"
#include "flightrec/sampler/sampler.h"
#include "flightrec/sampler/sampler_backend.h"
#include "flightrec/sampler/sources/system_sources.h"
#include "flightrec/store/process_ring.h"
#include "flightrec/store/ring.h"
#include "flightrec/trigger/alert_routes.h"
#include "flightrec/trigger/builtin_rules.h"
#include "flightrec/trigger/capturer.h"
#include "flightrec/trigger/collectors.h"
#include "flightrec/trigger/engine.h"
#include "flightrec/trigger/routes.h"
#include "flightrec/trigger/writer.h"
#include "flightrec/viewer/routes.h"

namespace flightrec::app {
namespace {

// The queue absorbs one second of frames (at least 64), 40 of the recorder's drain intervals: only
// a recorder stalled for a whole second makes the sampler drop frames.
size_t queue_capacity_frames(std::chrono::nanoseconds rate) {
  static_assert(std::chrono::seconds(1) >= 40 * recorder::Recorder::kDrainInterval);
  return std::max<size_t>(64, static_cast<size_t>(std::chrono::seconds(1) / rate));
}

// The text of the config the daemon runs with: the embedded defaults, or the file as loaded
// (already read once and bounded by the loader; a file that vanished since gives a note).
std::string config_text(const std::string& origin) {
  if (origin == config::kEmbeddedDefaultsOrigin)
    return std::string(config::embedded_defaults_yaml());
  std::ifstream file(origin);
  std::ostringstream text;
  text << file.rdbuf();
  return file ? text.str() : "(" + origin + " could not be read again)";
}

// The metadata that says how a recording was made: the configuration as loaded, and from where.
recording::Labels provenance_of(const std::string& origin) {
  return {{"config.origin", origin},
          {"config.yaml", config_text(origin)},
          {"flightrec.revision", std::string(kRevision)}};
}

std::string host_name() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string("unknown");
}

// Runs `body` on a thread; an exception there is logged and stops the daemon, never terminates it.
std::thread guarded_thread(const char* name, StopSignal& stop, bool& failed,
                           std::function<void()> body) {
  return std::thread([name, &stop, &failed, body = std::move(body)] {
    // Named so top, perf and the scrape benchmark can tell our threads from civetweb's.
    pthread_setname_np(pthread_self(), name);
    try {
      body();
    } catch (const std::exception& e) {
      log::error("thread failed", {{"thread", name}, {"err", e.what()}});
      failed = true;
      stop.request();
    }
  });
}

// The sampler thread's policy, set from the thread itself: SCHED_FIFO when sampler.realtime asks
// for it and the process may (else one warning naming what is missing), or left at SCHED_OTHER.
void set_sampler_priority(bool realtime_wanted, sampler::SamplerStats& stats) {
  if (!realtime_wanted) return;
  const Status realtime = priority::make_calling_thread_realtime();
  stats.realtime.store(realtime.ok());
  if (realtime) {
    log::info("sampler realtime", {{"policy", "SCHED_FIFO"},
                                   {"priority", std::to_string(priority::kSamplerFifoPriority)}});
  } else {
    log::warn("sampler.realtime: SCHED_FIFO refused, sampling at normal priority",
              {{"missing", realtime.error()}});
  }
}

// Every thread but the sampler works for it in the background (thread_priority.h says why
// SCHED_BATCH); a refusal only leaves the thread at SCHED_OTHER, so it is not worth a warning.
void set_background_priority() { static_cast<void>(priority::make_calling_thread_batch()); }

// Blocks until SIGINT, SIGTERM or SIGHUP arrives or `stop` was requested; returns the signal's
// name.
std::string wait_for_signal(int signal_fd, const StopSignal& stop) {
  pollfd fds[2] = {{signal_fd, POLLIN, 0}, {stop.fd(), POLLIN, 0}};
  while (::poll(fds, 2, -1) < 0 && errno == EINTR) {
  }
  if (fds[0].revents != 0) {
    signalfd_siginfo info{};
    if (::read(signal_fd, &info, sizeof info) == sizeof info) {
      return info.ssi_signo == SIGINT ? "SIGINT" : info.ssi_signo == SIGHUP ? "SIGHUP" : "SIGTERM";
    }
  }
  return "internal stop";
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& word : words) out += (out.empty() ? "" : " ") + word;
  return out;
}

sampler::OpenedSources open_sources(const Command& command, const config::Config& cfg) {
  auto opened = sampler::open_system_sources(proc_root_of(command), cfg.sources);
  for (const auto& reason : opened.skipped) log::warn("source skipped", {{"reason", reason}});
  return opened;
}

// "stat=4ms cgroup_cpu=4ms ...": each source's configured read rate in whole ticks, for the log
// and the metadata (sampler.rate_changes says when sampler.cpu_budget changed one since).
std::string source_rates_text(const sampler::Sampler& sampler) {
  std::string text;
  for (size_t i = 0; i < sampler.sources().size(); ++i) {
    if (!text.empty()) text += ' ';
    text += std::string(sampler.sources()[i]->name()) + "=" +
            config::format_duration(sampler.configured_rate(i));
  }
  return text;
}

sampler::CpuBudgetSettings cpu_budget_settings(const config::Config& cfg) {
  return {.budget = static_cast<double>(cfg.sampler.cpu_budget_ppm) * 1e-6};
}

// The start-up or reload error for container rules when the container tier does not run: one
// line per rule, as the engine's errors for signals this host lacks.
std::string container_rules_without_tier(const std::vector<config::TriggerRule>& rules) {
  std::string text;
  for (const config::TriggerRule& rule : trigger::container_rules(rules)) {
    if (!text.empty()) text += "\n";
    text += "trigger \"" + rule.name + "\" (line " + std::to_string(rule.line) +
            "): container signal \"" + rule.selector.name +
            "\" needs the container tier, which is off (containers.enabled, or no cgroup "
            "hierarchy: see the log line \"container tier off\")";
  }
  return text;
}

// How long a stop may spend writing the incidents still queued (finish_at_shutdown).
constexpr std::chrono::seconds kShutdownWriteBudget{10};

// How many incidents the landing page links: enough for the last burst, /incidents has the rest.
constexpr size_t kLandingIncidents = 5;

int64_t real_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Daemon::Daemon(const Command& command, const Setup& setup)
    : command_(command),
      cfg_(*setup.config),
      start_real_ns_(real_now_ns()),
      host_(host_name()),
      provenance_(provenance_of(setup.config_origin)),
      sampler_(open_sources(command, cfg_), cfg_.sampler.rate, cpu_budget_settings(cfg_)),
      queue_(sampler_.schema().size(), queue_capacity_frames(cfg_.sampler.rate)),
      ring_({.series = static_cast<uint32_t>(sampler_.schema().size()),
             .rate = cfg_.sampler.rate,
             .duration = cfg_.buffer.duration,
             .max_bytes = cfg_.buffer.max_bytes}),
      recorder_(queue_, ring_, sampler_.schema(), cfg_.sampler.rate, cfg_.export_.window),
      // Rules name signals of this host's schema, known only now: a rule naming none is a
      // start-up error that names the rule (std::invalid_argument, reported by main).
      engine_(trigger::rules_with_builtins(cfg_), recorder_.signals().signals(), sampler_.schema(),
              cfg_.sampler.rate),
      incident_store_({.dir = cfg_.incidents.dir,
                       .max_count = cfg_.incidents.max_count,
                       .max_bytes = cfg_.incidents.max_bytes,
                       // Sample and serve at once, however much the store holds.
                       .verify_in_background = true}),
      process_ring_({.duration = cfg_.buffer.duration, .max_bytes = cfg_.buffer.max_bytes / 4}),
      container_ring_({.duration = cfg_.buffer.duration, .max_bytes = cfg_.buffer.max_bytes / 8}),
      incident_sink_(
          incident_store_, [this] { return metadata_now(); },
          cfg_.processes.enabled
              ? incidents::ProcessBlocksSource([this] { return process_ring_.blocks(); })
              : incidents::ProcessBlocksSource{},
          // Empty while the container tier is off: its ring is never filled.
          [this](int64_t from_ns, int64_t to_ns) {
            return container_ring_.frames_between(from_ns, to_ns);
          }),
      // An alert or an OOM victim's cgroup may name a container gone for as long as the ring
      // holds what it did.
      container_directory_(cfg_.buffer.duration),
      kernel_log_("/dev/kmsg"),
      oom_victim_namer_(incident_sink_, kernel_log_,
                        cfg_.processes.enabled ? trigger::ProcessBlocksSource(
                                                     [this] { return process_ring_.blocks(); })
                                               : trigger::ProcessBlocksSource{}),
      alert_receiver_(trigger::AlertReceiver::options_from(cfg_),
                      [this](const std::string& key) { return alert_episode_stored(key); }),
      incident_writer_(oom_victim_namer_, trigger::IncidentWriter::kDefaultMaxQueued,
                       &incident_sink_),
      container_triggers_(trigger::container_rules(cfg_.triggers), cfg_.buffer.duration),
      capturer_(engine_, ring_,
                {.rate = cfg_.sampler.rate, .buffer_duration = cfg_.buffer.duration},
                [this](model::IncidentCapture incident, store::Snapshot blocks) {
                  // A drop is counted and logged (rate-limited) by the writer.
                  incident_writer_.submit(std::move(incident), std::move(blocks));
                }),
      // A manual request stays pending for the capture's post window (CaptureOptions).
      manual_gate_(trigger::CaptureOptions{}.manual_post, cfg_.incidents.manual_interval),
      collectables_(start_real_ns_),
      max_dump_bytes_(cfg_.web.max_dump_bytes),
      running_(*setup.config) {
  sampler::choose_sampler_backend(sampler_, cfg_, proc_root_of(command));
  if (cfg_.processes.enabled) start_process_tier(command);
  open_container_tier(command);
  capturer_.add_requests(alert_receiver_);
  watch_containers();
  alert_receiver_.hand_revisions_to([this](model::IncidentRevision revision) {
    return incident_writer_.submit_revision(std::move(revision), ring_.snapshot());
  });
  alert_receiver_.reserve_places_with(
      [this](std::string_view alert) { return incident_writer_.reserve(alert); });
  recorder_.set_frame_hook(
      [this](const sampler::FrameHeader& header, std::span<const int64_t> raw,
             std::span<const double> derived) { capturer_.on_frame(header, raw, derived); });
  watch_oom_victims();
  log::info("sampling",
            {{"rate", config::format_duration(sampler_.rate())},
             {"backend", std::string(sampler_.backend())},
             {"wakes_every", config::format_duration(sampler_.rate() * sampler_.wake_every())},
             {"source_rates", source_rates_text(sampler_)},
             {"series", std::to_string(sampler_.schema().size())}});
  add_collectors();
  server_ = std::make_unique<http::Server>(
      http::ServerOptions{.listen_address = cfg_.web.listen_address,
                          .max_requests = cfg_.web.max_requests,
                          .web_config_file = command.web_config_file.value_or(""),
                          .access = http::access_policy(cfg_.web),
                          .stats = http_stats_},
      router());
  log::info("listening", {{"url", server_->url()}});
}

recording::Metadata Daemon::metadata_now() const {
  recording::Labels extra;
  {
    const std::lock_guard lock(provenance_mutex_);
    extra = provenance_;
  }
  // Each source's read rate: a reader can tell a repeated value from a quiet one.
  extra.emplace_back("sampler.source_rates", source_rates_text(sampler_));
  // Every change sampler.cpu_budget made since, with its time ("" when none).
  extra.emplace_back("sampler.rate_changes", sampler::rate_changes_text(sampler_.stats()));
  extra.emplace_back("sampler.realtime", sampler_.stats().realtime.load() ? "true" : "false");
  extra.emplace_back("sampler.backend", std::string(sampler_.backend()));
  return recording::Metadata{.rate_ns = cfg_.sampler.rate.count(),
                             .host = host_,
                             .flightrec_version = std::string(kVersion),
                             .series = recording::describe_schema(sampler_.schema()),
                             .extra = std::move(extra)};
}

void Daemon::start_process_tier(const Command& command) {
  process_tier_ =
      std::make_unique<recorder::ProcessRecorder>(cfg_, proc_root_of(command), process_ring_);
  process_metrics_ = std::make_unique<exporter::metrics::ProcessMetrics>(
      cfg_.export_.window, cfg_.export_.top_processes, process_tier_->backend_name());
  process_tier_->set_frame_observer(
      [&metrics = *process_metrics_](const process::ProcessFrame& frame) {
        metrics.observe(frame);
      });
}

// What reads the container tier's rounds: container rules, and the directory that scopes alerts
// and names OOM victims' containers. Container rules without the tier stop the start-up.
void Daemon::watch_containers() {
  if (!container_tier_) {
    if (!container_triggers_.empty()) {
      throw std::invalid_argument(container_rules_without_tier(cfg_.triggers));
    }
    return;
  }
  oom_victim_namer_.name_containers_with(container_directory_);
  alert_receiver_.scope_with(
      [this](const config::AlertLabels& labels) { return container_directory_.scope_of(labels); });
  container_tier_->set_round_observer([this](const recorder::containers::ContainerRound& round) {
    container_directory_.observe(round);
    container_triggers_.observe(round);
  });
  capturer_.add_requests(container_triggers_);
}

// The container tier runs unless turned off or there is no cgroup hierarchy to read: either way
// one line says so, and the daemon runs without it.
void Daemon::open_container_tier(const Command& command) {
  if (!cfg_.containers.enabled) {
    log::info("container tier off", {{"reason", "containers.enabled is false"}});
    return;
  }
  auto tier = recorder::ContainerRecorder::open(recorder::container_tier_settings(cfg_),
                                                proc_root_of(command));
  if (!tier) {
    log::info("container tier off", {{"reason", tier.error()}});
    return;
  }
  container_tier_ = std::move(*tier);
  container_tier_->record_into(container_ring_);
  const std::string episodes = use_throttle_episodes();
  log::info("container tier",
            {{"cgroup", std::string(container::mode_name(container_tier_->mode()))},
             {"rate", config::format_duration(cfg_.containers.rate)},
             {"fast_rate", config::format_duration(cfg_.containers.fast_rate)},
             {"fast_max", std::to_string(cfg_.containers.fast_max)},
             {"detail_rate", config::format_duration(cfg_.containers.detail_rate)},
             {"names", cfg_.containers.names.enabled ? "on" : "off"},
             {"throttle_episodes", episodes}});
}

// The kernel's throttling episodes when containers.throttle_episodes allows and the eBPF program
// loads (root, kernel BTF); else the frames carry the fast tier's cpu.stat reads only. Returns
// what the start-up line says: "ebpf", "off" or why not.
std::string Daemon::use_throttle_episodes() {
  if (cfg_.containers.throttle_episodes == "off") return "off";
  auto recorder = container::make_episode_recorder();
  if (!recorder) return "unavailable: " + recorder.error();
  container_tier_->use_episode_recorder(std::move(*recorder));
  return "ebpf";
}

// OOM victims are named from the kernel log and from the process tier's eBPF exit reports: one
// of them suffices (trigger/oom_victim_sources.h); with neither, incidents say the victim is
// unknown. Wired even while incidents.capture_oom_kills is off: a reload may turn it on.
void Daemon::watch_oom_victims() {
  const std::string exits_missing = process_tier_ ? process_tier_->exits_missing()
                                                  : "the process tier is off (processes.enabled)";
  oom_victim_namer_.set_exit_reports_missing(exits_missing);
  if (process_tier_) {
    process_tier_->set_oom_victim_observer(
        [this](const process::ExitedProcess& exited) { oom_victim_namer_.victim_exited(exited); });
  }
  if (!cfg_.incidents.capture_oom_kills || kernel_log_.error().empty()) return;
  if (exits_missing.empty()) {
    log::info(
        "OOM victims named from eBPF exit reports only (no cgroup limit, no size split): "
        "the kernel log cannot be read",
        {{"error", kernel_log_.error()}});
  } else {
    log::warn(
        "OOM incidents will not name their victim: neither the kernel log nor eBPF exit "
        "reports can be read",
        {{"error", kernel_log_.error()}, {"exit_reports", exits_missing}});
  }
}

bool Daemon::alert_episode_stored(const std::string& key) const {
  // Only for an episode the receiver does not remember, a few times per restart: a scan of the
  // index (incidents.max_count entries) is cheap enough.
  const auto stored = incident_store_.list();
  return std::any_of(stored.begin(), stored.end(), [&](const incidents::IncidentEntry& entry) {
    return entry.status == incidents::IncidentStatus::written &&
           trigger::episode_key(entry.incident) == key;
  });
}

// The collectors in the order /metrics shows them: the machine, then flightrec's own health. Each
// consumer's collector is its own (incidents::, trigger::); the rest are exporter's.
void Daemon::add_collectors() {
  using namespace exporter::metrics;
  collectables_.emplace<SystemCollector>(sampler_.schema(), recorder_);
  if (process_metrics_) collectables_.emplace<ProcessRankingsCollector>(*process_metrics_);
  if (container_tier_) {
    container_collector_ =
        &collectables_.emplace<ContainerCollector>(*container_tier_, cfg_.export_.top_containers);
    collectables_.emplace<ContainerRingCollector>(container_ring_);
  }
  collectables_.emplace<InstanceCollector>(InstanceCollector::Settings{
      .start_real_ns = start_real_ns_, .sampler_rate = sampler_.rate(), .export_window = [this] {
        return recorder_.window_stats().window();
      }});
  collectables_.emplace<SamplerCollector>(sampler_.stats());
  collectables_.emplace<RecorderCollector>(recorder_, ring_);
  collectables_.emplace<incidents::IncidentsCollector>(incident_store_);
  collectables_.emplace<trigger::CaptureCollector>(incident_writer_, manual_gate_);
  collectables_.emplace<trigger::AlertsCollector>(alert_receiver_);
  if (process_tier_) {
    collectables_.emplace<ProcessTierCollector>(process_tier_->stats(), process_ring_,
                                                std::string(process_tier_->process_backend()));
  }
  // Our own process, under the real /proc even when the sampler reads a fixture tree; after the
  // process tier has loaded its BPF programs, whose run time it counts.
  collectables_.emplace<SelfCostCollector>(SelfCostCollector::Settings{});
  collectables_.emplace<HttpCollector>(*http_stats_);
  scrapes_ = &collectables_.emplace<ScrapeCollector>();
  reload_status_ = &collectables_.emplace<ReloadStatus>(start_real_ns_);
}

// Every route the daemon serves, each from the component that owns it; the router picks the most
// specific (/incidents/{id}/view is the viewer's, /incidents/{id...} the incidents component's).
// The landing page comes last, to list every route added before it.
http::Router Daemon::router() {
  dump::DumpSource dump_source{.blocks = [this] { return ring_.snapshot().blocks(); },
                               .metadata = [this] { return metadata_now(); },
                               .max_bytes = [this] { return max_dump_bytes_.load(); },
                               .now_real_ns = {}};
  if (process_tier_) dump_source.process_blocks = [this] { return process_ring_.blocks(); };
  if (container_tier_) {
    dump_source.container_frames = [this](int64_t from_ns, int64_t to_ns) {
      return container_ring_.frames_between(from_ns, to_ns);
    };
  }
  http::Router router;
  router.add(app_routes(recorder_));
  router.add(exporter::metrics::metrics_route(collectables_, *scrapes_));
  router.add(dump::dump_route(std::move(dump_source), {viewer::dump_page()}));
  router.add(incidents::incidents_routes(incident_store_));
  router.add(viewer::incident_view_route(
      [this](std::string_view id) { return incidents::open_stored_file(incident_store_, id); }));
  router.add(trigger::manual_trigger_route(engine_, manual_gate_, [](int64_t fired_at_ns) {
    return incidents::make_incident_id(fired_at_ns, model::kManualRule);
  }));
  router.add(trigger::alert_trigger_routes(alert_receiver_));
  // As Prometheus: an HTTP reload only when the operator asked for lifecycle endpoints.
  if (command_.web_enable_lifecycle) router.add(reload_route());
  // The newest incidents, to a client that could open them (/incidents needs a stricter role
  // than the landing page).
  router.add(landing_page_route(router.routes(), [this](const http::Request& request) {
    if (!request.allows(http::Right::read_history)) return std::string();
    return incidents::newest_incidents_html(incident_store_.list(), kLandingIncidents);
  }));
  return router;
}

int Daemon::run(int signal_fd) {
  StopSignal stop;
  bool failed = false;
  std::thread sampler_thread = guarded_thread("sampler", stop, failed, [&] {
    set_sampler_priority(cfg_.sampler.realtime, sampler_.stats());
    sampler_.run(queue_, stop);
  });
  std::thread recorder_thread = guarded_thread("recorder", stop, failed, [&] {
    set_background_priority();
    recorder_.run(stop);
  });
  std::thread process_thread;
  if (process_tier_) {
    process_thread = guarded_thread("processes", stop, failed, [&] {
      set_background_priority();
      process_tier_->run(stop);
    });
  }

  std::thread container_thread;
  if (container_tier_) {
    container_thread = guarded_thread("containers", stop, failed, [&] {
      set_background_priority();
      container_tier_->run(stop);
    });
  }

  std::string reason;
  // A reload that fails is logged and counted by reload itself; the daemon runs on either way.
  while ((reason = wait_for_signal(signal_fd, stop)) == "SIGHUP") {
    static_cast<void>(reload("SIGHUP"));
  }
  log::info("stopping", {{"reason", reason}});
  // Alerts from now on are answered 503, for their sender to send them to the next run: nothing
  // would capture them once the recorder has stopped.
  alert_receiver_.close();
  stop.request();
  sampler_.wake();
  sampler_thread.join();
  recorder_thread.join();
  if (process_thread.joinable()) process_thread.join();
  if (container_thread.joinable()) container_thread.join();
  // Incidents waiting for their post window (rule, manual and the alerts answered "captured") are
  // written with what was recorded of it, within a bound: the stop must end before a service
  // manager gives up on it (Kubernetes allows 30 s by default, systemd 90 s).
  capturer_.finish_at_shutdown();
  incident_writer_.finish(kShutdownWriteBudget);
  const auto& stats = sampler_.stats();
  log::info("stopped", {{"ticks", std::to_string(stats.ticks.load())},
                        {"late_ticks", std::to_string(stats.late_ticks.load())},
                        {"missed_ticks", std::to_string(stats.missed_ticks.load())},
                        {"queue_overflows", std::to_string(stats.queue_overflows.load())},
                        {"frames_recorded", std::to_string(recorder_.frames_recorded())}});
  return failed ? 1 : 0;
}

Status Daemon::reload(std::string_view cause) {
  const std::lock_guard lock(reload_mutex_);
  Setup loaded = load_setup(command_);
  if (!loaded.config) return reload_failed(cause, loaded.errors);
  // A reload is one transaction: every part of the new configuration is built, and so checked,
  // before any is installed, so that a failure anywhere leaves the daemon as it was. load_setup
  // has set the new log level: back to the running one until the rest is installed with it.
  log::set_level(*log::parse_level(running_.log.level));
  // The web config is re-read on change by the server itself, which keeps the previous version
  // when the new one is invalid; a reload says so too, and counts as failed.
  http::PreparedTls tls;
  if (command_.web_config_file) {
    auto read = http::load_web_config(*command_.web_config_file);
    if (!read.config) return reload_failed(cause, read.errors);
    auto prepared = server_->prepare_tls(read.config->tls);
    if (!prepared) return reload_failed(cause, {prepared.error()});
    tls = *std::move(prepared);
  }
  ReloadPlan plan;
  std::optional<trigger::TriggerEngine::ResolvedRules> rules;
  try {
    plan = plan_reload(running_, *loaded.config);
    // web.roles naming a user the web config lacks fails the reload.
    if (auto errors = server_->access_errors(http::access_policy(plan.effective.web));
        !errors.empty()) {
      return reload_failed(cause, errors);
    }
    // Rules naming signals this host lacks fail it too, and container rules without the tier.
    rules.emplace(engine_.resolve_rules(trigger::rules_with_builtins(plan.effective)));
    if (!container_tier_ && !trigger::container_rules(plan.effective.triggers).empty()) {
      throw std::invalid_argument(container_rules_without_tier(plan.effective.triggers));
    }
  } catch (const std::exception& e) {
    return reload_failed(cause, {e.what()});
  }
  // Everything is built: installing it cannot fail.
  engine_.replace_rules(std::move(*rules));
  container_triggers_.replace_rules(trigger::container_rules(plan.effective.triggers));
  server_->install_tls(std::move(tls));
  apply_live(plan.effective, loaded.config_origin);
  running_ = std::move(plan.effective);
  reload_status_->succeeded(real_now_ns());
  log::info("configuration reloaded", {{"cause", std::string(cause)},
                                       {"config", loaded.config_origin},
                                       {"changed", joined(plan.applied)}});
  if (!plan.kept.empty()) {
    log::warn("configuration reload: these settings change only at a restart; the old values stay",
              {{"keys", joined(plan.kept)}});
  }
  return {};
}

Error Daemon::reload_failed(std::string_view cause, const std::vector<std::string>& errors) {
  reload_status_->failed();
  std::string text;
  for (const auto& error : errors) {
    log::error("configuration reload failed; the running configuration stays",
               {{"cause", std::string(cause)}, {"error", error}});
    text += error + "\n";
  }
  return Error{text};
}

// Every live setting, each through the setter of the component that reads it (config_reload.h
// lists them); the triggers and the TLS context were installed already.
void Daemon::apply_live(const config::Config& effective, const std::string& origin) {
  incident_store_.set_bounds(effective.incidents.max_count, effective.incidents.max_bytes);
  max_dump_bytes_.store(effective.web.max_dump_bytes);
  // Only when it changed: a new pattern makes the tier read every process's identity again.
  if (process_tier_ && effective.processes.redact_cmdline != running_.processes.redact_cmdline) {
    process_tier_->set_redaction(effective.processes.redact_cmdline);
  }
  manual_gate_.set_min_interval(effective.incidents.manual_interval);
  if (effective.incidents.alerts != running_.incidents.alerts) {
    alert_receiver_.set_options(trigger::AlertReceiver::options_from(effective));
  }
  if (process_metrics_) process_metrics_->set_top_n(effective.export_.top_processes);
  if (container_collector_) container_collector_->set_top_n(effective.export_.top_containers);
  if (effective.export_.window != running_.export_.window) {
    recorder_.set_export_window(effective.export_.window);
    if (process_metrics_) process_metrics_->set_window(effective.export_.window);
    if (container_tier_) container_tier_->set_window(effective.export_.window);
  }
  log::set_level(*log::parse_level(effective.log.level));
  if (effective.web != running_.web) {
    server_->set_access(http::access_policy(effective.web));
    server_->set_max_requests(effective.web.max_requests);
  }
  const std::lock_guard lock(provenance_mutex_);
  provenance_ = provenance_of(origin);
}

http::Route Daemon::reload_route() {
  return {.path = "/-/reload",
          .summary = "re-reads the configuration file and applies what may change live",
          .handler =
              [this](const http::Request&, http::Response& response) {
                const Status reloaded = reload("POST /-/reload");
                if (reloaded) {
                  response.send(200, "text/plain; charset=utf-8", "configuration reloaded\n");
                } else {
                  response.send(500, "text/plain; charset=utf-8", reloaded.error());
                }
              },
          .methods = {"POST"},
          .right = http::Right::capture};
}

int run_daemon(const Command& command) {
  // Signals are taken through a signalfd by this thread only, so every thread started below
  // (ours and civetweb's) must inherit them blocked.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGHUP);  // a reload, not the default action's termination
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
  Fd signal_fd(::signalfd(-1, &stop_signals, SFD_CLOEXEC));
  recorder::bound_heap_retention();  // before any thread: docs/DEPLOYMENT.md, "Memory"

  const Setup setup = load_setup(command);
  if (!setup.config) {
    for (const auto& error : setup.errors) std::cerr << error << '\n';
    return 1;
  }
  const config::Config& cfg = *setup.config;
  log::info("starting", {{"version", std::string(kVersion)},
                         {"config", setup.config_origin},
                         {"rate", config::format_duration(cfg.sampler.rate)},
                         {"buffer", config::format_duration(cfg.buffer.duration)},
                         {"max_bytes", config::format_size(cfg.buffer.max_bytes)}});
  Daemon daemon(command, setup);
  return daemon.run(signal_fd.get());
}

}  // namespace flightrec::app
