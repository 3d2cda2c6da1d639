#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <fstream>
#include <iostream>
#include <span>
#include <sstream>
#include <thread>

#include "app_routes.h"
#include "flightrec/app/commands.h"
#include "flightrec/app/setup.h"
#include "flightrec/common/fd.h"
#include "flightrec/common/log.h"
#include "flightrec/common/stop_signal.h"
#include "flightrec/common/version.h"
#include "flightrec/config/loader.h"
#include "flightrec/config/units.h"
#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exporter/metrics/metrics_route.h"
#include "flightrec/http/dump_handler.h"
#include "flightrec/http/server.h"
#include "flightrec/incidents/incident_file_sink.h"
#include "flightrec/incidents/incident_store.h"
#include "flightrec/incidents/routes.h"
#include "flightrec/recorder/process_recorder.h"
#include "flightrec/recorder/recorder.h"
#include "flightrec/recording/metadata.h"
#include "flightrec/sampler/sampler.h"
#include "flightrec/sampler/sources/system_sources.h"
#include "flightrec/store/process_ring.h"
#include "flightrec/store/ring.h"
#include "flightrec/trigger/capturer.h"
#include "flightrec/trigger/engine.h"
#include "flightrec/trigger/routes.h"
#include "flightrec/trigger/writer.h"
#include "flightrec/viewer/routes.h"

namespace flightrec::app {
namespace {

// The queue absorbs one second of frames (at least 64): the recorder wakes every 2 ms, so only a
// recorder stalled for a whole second makes the sampler drop frames.
size_t queue_capacity_frames(std::chrono::nanoseconds rate) {
  return std::max<size_t>(64, static_cast<size_t>(std::chrono::seconds(1) / rate));
}

// What /metrics reads, component by component.
struct MetricSources {
  const sampler::Sampler& sampler;
  const recorder::Recorder& recorder;
  const store::Ring& ring;
  const incidents::IncidentStore& incidents;
  const trigger::IncidentWriter& incident_writer;
  int64_t start_real_ns;
  // The process tier; null when processes.enabled is false.
  const exporter::metrics::ProcessMetrics* processes;
  const recorder::ProcessRecorder* process_tier;
  const store::ProcessRing& process_ring;
};

// The collectors in the order /metrics shows them: the machine, then flightrec's own health.
// Returns the scrape collector, which the /metrics route feeds.
exporter::metrics::ScrapeCollector& add_collectors(exporter::metrics::Collectables& collectables,
                                                   const MetricSources& in) {
  using namespace exporter::metrics;
  collectables.emplace<SystemCollector>(in.sampler.schema(), in.recorder);
  if (in.processes != nullptr) collectables.emplace<ProcessRankingsCollector>(*in.processes);
  collectables.emplace<InstanceCollector>(
      InstanceCollector::Settings{.start_real_ns = in.start_real_ns,
                                  .sampler_rate = in.sampler.rate(),
                                  .export_window = in.recorder.window_stats().window()});
  collectables.emplace<SamplerCollector>(in.sampler.stats());
  collectables.emplace<RecorderCollector>(in.recorder, in.ring);
  collectables.emplace<IncidentsCollector>(in.incidents, in.incident_writer);
  if (in.process_tier != nullptr) {
    collectables.emplace<ProcessTierCollector>(in.process_tier->stats(), in.process_ring);
  }
  return collectables.emplace<ScrapeCollector>();
}

// What the routes serve, beside the ring's window.
struct RouteSources {
  const recorder::Recorder& recorder;
  const exporter::metrics::Collectables& collectables;
  exporter::metrics::ScrapeCollector& scrapes;
  const incidents::IncidentStore& incidents;
  trigger::TriggerEngine& engine;
};

// Every route the daemon serves, each from the component that owns it; the router picks the most
// specific (/incidents/{id}/view is the viewer's, /incidents/{id...} the incidents component's).
http::Router daemon_router(const RouteSources& in, http::DumpSource dump) {
  http::Router router;
  router.add(app_routes(in.recorder));
  router.add(exporter::metrics::metrics_route(in.collectables, in.scrapes));
  router.add(http::dump_route(std::move(dump), {viewer::dump_page()}));
  router.add(incidents::incidents_routes(in.incidents));
  router.add(viewer::incident_view_route(in.incidents));
  router.add(trigger::manual_trigger_route(in.engine));
  return router;
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

// Blocks until SIGINT/SIGTERM arrives or `stop` was requested; returns the signal's name.
std::string wait_for_stop(int signal_fd, const StopSignal& stop) {
  pollfd fds[2] = {{signal_fd, POLLIN, 0}, {stop.fd(), POLLIN, 0}};
  while (::poll(fds, 2, -1) < 0 && errno == EINTR) {
  }
  if (fds[0].revents != 0) {
    signalfd_siginfo info{};
    if (::read(signal_fd, &info, sizeof info) == sizeof info) {
      return info.ssi_signo == SIGINT ? "SIGINT" : "SIGTERM";
    }
  }
  return "internal stop";
}

}  // namespace

int run_daemon(const Command& command) {
  // Signals are taken through a signalfd by this thread only, so every thread started below
  // (ours and civetweb's) must inherit them blocked.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
  Fd signal_fd(::signalfd(-1, &stop_signals, SFD_CLOEXEC));

  const Setup setup = load_setup(command);
  if (!setup.config) {
    for (const auto& error : setup.errors) std::cerr << error << '\n';
    return 1;
  }
  const config::Config& cfg = *setup.config;
  const int64_t start_real_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count();
  log::info("starting", {{"version", std::string(kVersion)},
                         {"config", setup.config_origin},
                         {"rate", config::format_duration(cfg.sampler.rate)},
                         {"buffer", config::format_duration(cfg.buffer.duration)},
                         {"max_bytes", config::format_size(cfg.buffer.max_bytes)}});

  auto opened = sampler::open_system_sources(proc_root_of(command), cfg.sources);
  for (const auto& reason : opened.skipped) log::warn("source skipped", {{"reason", reason}});
  sampler::Sampler sampler(std::move(opened.sources), cfg.sampler.rate);
  sampler::FrameQueue queue(sampler.schema().size(), queue_capacity_frames(cfg.sampler.rate));
  store::Ring ring({.series = static_cast<uint32_t>(sampler.schema().size()),
                    .rate = cfg.sampler.rate,
                    .duration = cfg.buffer.duration,
                    .max_bytes = cfg.buffer.max_bytes});
  recorder::Recorder recorder(queue, ring, sampler.schema(), cfg.sampler.rate, cfg.export_.window);
  // Rules name signals of this host's schema, known only now: a rule naming none is a start-up
  // error that names the rule (std::invalid_argument, reported by main).
  trigger::TriggerEngine engine(cfg.triggers, recorder.signals().signals(), sampler.schema(),
                                cfg.sampler.rate);
  incidents::IncidentStore incident_store({.dir = cfg.incidents.dir,
                                           .max_count = cfg.incidents.max_count,
                                           .max_bytes = cfg.incidents.max_bytes});
  const std::string host = host_name();
  // Every incident and raw dump says how it was recorded: the config as loaded, and its origin.
  const recording::Labels provenance{{"config.origin", setup.config_origin},
                                     {"config.yaml", config_text(setup.config_origin)},
                                     {"flightrec.revision", std::string(kRevision)}};
  const auto metadata_now = [&sampler, &cfg, &host, &provenance] {
    return recording::Metadata{.rate_ns = cfg.sampler.rate.count(),
                               .host = host,
                               .flightrec_version = std::string(kVersion),
                               .series = recording::describe_schema(sampler.schema()),
                               .extra = provenance};
  };
  // The process tier keeps the same history as the system ring in a quarter of its byte bound.
  store::ProcessRing process_ring(
      {.duration = cfg.buffer.duration, .max_bytes = cfg.buffer.max_bytes / 4});
  std::unique_ptr<recorder::ProcessRecorder> process_tier;
  std::unique_ptr<exporter::metrics::ProcessMetrics> process_metrics;
  if (cfg.processes.enabled) {
    process_tier =
        std::make_unique<recorder::ProcessRecorder>(cfg, proc_root_of(command), process_ring);
    process_metrics = std::make_unique<exporter::metrics::ProcessMetrics>(
        cfg.export_.window, cfg.export_.top_processes, process_tier->backend_name());
    process_tier->set_frame_observer(
        [&metrics = *process_metrics](const sampler::process::ProcessFrame& frame) {
          metrics.observe(frame);
        });
  }

  incidents::IncidentFileSink incident_sink(
      incident_store, metadata_now,
      process_tier
          ? incidents::ProcessBlocksSource([&process_ring] { return process_ring.blocks(); })
          : incidents::ProcessBlocksSource{});
  trigger::IncidentWriter incident_writer(incident_sink);
  trigger::IncidentCapturer capturer(
      engine, ring, {.rate = cfg.sampler.rate, .buffer_duration = cfg.buffer.duration},
      [&incident_writer](trigger::IncidentCapture incident, store::Snapshot blocks) {
        if (!incident_writer.submit(std::move(incident), std::move(blocks))) {
          log::warn("incident dropped: the writer is behind");
        }
      });
  recorder.set_frame_hook(
      [&capturer](const sampler::FrameHeader& header, std::span<const int64_t> raw,
                  std::span<const double> derived) { capturer.on_frame(header, raw, derived); });
  log::info("sampling", {{"sources", std::to_string(sampler.sources().size())},
                         {"series", std::to_string(sampler.schema().size())}});

  StopSignal stop;
  exporter::metrics::Collectables collectables(start_real_ns);
  auto& scrapes = add_collectors(collectables, {.sampler = sampler,
                                                .recorder = recorder,
                                                .ring = ring,
                                                .incidents = incident_store,
                                                .incident_writer = incident_writer,
                                                .start_real_ns = start_real_ns,
                                                .processes = process_metrics.get(),
                                                .process_tier = process_tier.get(),
                                                .process_ring = process_ring});
  http::DumpSource dump_source{.blocks = [&ring] { return ring.snapshot().blocks(); },
                               .metadata = metadata_now,
                               .max_bytes = cfg.web.max_dump_bytes,
                               .now_real_ns = {}};
  if (process_tier) {
    dump_source.process_blocks = [&process_ring] { return process_ring.blocks(); };
  }
  http::Server server({.listen_address = cfg.web.listen_address},
                      daemon_router({recorder, collectables, scrapes, incident_store, engine},
                                    std::move(dump_source)));
  log::info("listening", {{"url", server.url()}});

  bool failed = false;
  std::thread sampler_thread =
      guarded_thread("sampler", stop, failed, [&] { sampler.run(queue, stop); });
  std::thread recorder_thread =
      guarded_thread("recorder", stop, failed, [&] { recorder.run(stop); });
  std::thread process_thread;
  if (process_tier) {
    process_thread = guarded_thread("processes", stop, failed, [&] { process_tier->run(stop); });
  }

  const std::string reason = wait_for_stop(signal_fd.get(), stop);
  log::info("stopping", {{"reason", reason}});
  stop.request();
  sampler.wake();
  sampler_thread.join();
  recorder_thread.join();
  if (process_thread.joinable()) process_thread.join();
  const auto& stats = sampler.stats();
  log::info("stopped", {{"ticks", std::to_string(stats.ticks.load())},
                        {"late_ticks", std::to_string(stats.late_ticks.load())},
                        {"missed_ticks", std::to_string(stats.missed_ticks.load())},
                        {"queue_overflows", std::to_string(stats.queue_overflows.load())},
                        {"frames_recorded", std::to_string(recorder.frames_recorded())}});
  return failed ? 1 : 0;
}

}  // namespace flightrec::app
