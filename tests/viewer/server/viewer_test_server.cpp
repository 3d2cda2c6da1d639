// The viewer's pages over a synthetic incident, for the browser test: writes the incident into
// DIR with the real IncidentStore (an atomically written recording file), serves
// /incidents[/{id}[/view]] and /dump[?format=html] on a free loopback port, and prints
// "oom_incident=<id>" (the same recording as an OOM incident) and then "url=<base url>
// incident=<id>" once it listens. Runs until killed.
#include <signal.h>

#include <iostream>

#include "flightrec/dump/dump_route.h"
#include "flightrec/http/server.h"
#include "flightrec/incidents/incident_store.h"
#include "flightrec/incidents/routes.h"
#include "flightrec/incidents/stored_file.h"
#include "flightrec/viewer/routes.h"
#include "synthetic_recording.h"

using namespace flightrec;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: viewer_test_server DIR\n";
    return 2;
  }
  // Blocked before the server's threads start, so that they inherit the mask and sigwait gets them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  // 60 s at 1 ms, the trigger at 30 s: the full-resolution case the page must carry.
  const auto rec = viewer::testing::synthetic_recording(60'000, 30'000);
  incidents::IncidentStore store({.dir = argv[1]});
  const auto entry = store.write({.rule = "cpu_burst",
                                  .value = 1.0,
                                  .series = "cpu_busy_ratio{cpu=\"total\"}",
                                  .fired_at_ns = rec.trigger_ns,
                                  .window_from_ns = viewer::testing::kStartNs,
                                  .window_to_ns = rec.trigger_ns + 30'000'000'000},
                                 rec.metadata, rec.blocks, rec.process_blocks);
  if (entry.status != incidents::IncidentStatus::written) {
    std::cerr << "writing the incident failed: " << entry.error << '\n';
    return 1;
  }
  // The same recording as an OOM incident: postgres (pid 900) killed 5 s after the burst began,
  // with the details the OOM victim namer adds.
  const int64_t kill_ns = rec.trigger_ns + 5'000'000'000;
  const auto oom =
      store.write({.kind = model::IncidentKind::oom_kill,
                   .rule = "oom_kill",
                   .condition = "oom_kills_per_second > 0",
                   .value = 1000,
                   .series = "oom_kills_per_second",
                   .fired_at_ns = kill_ns + 4'000'000,
                   .window_from_ns = viewer::testing::kStartNs,
                   .window_to_ns = kill_ns + 30'000'000'000,
                   .details = {{"oom.victim_pid", "900"},
                               {"oom.victim_command", "postgres"},
                               {"oom.killed_at_ns", std::to_string(kill_ns)},
                               {"oom.top_rss_at_ns", std::to_string(kill_ns)},
                               {"oom.top_rss.1", "pid=900 rss_bytes=314572800 comm=postgres"},
                               {"oom.top_rss.2", "pid=1 rss_bytes=12582912 comm=systemd"}}},
                  rec.metadata, rec.blocks, rec.process_blocks);
  if (oom.status != incidents::IncidentStatus::written) {
    std::cerr << "writing the OOM incident failed: " << oom.error << '\n';
    return 1;
  }
  http::Router router;
  router.add(incidents::incidents_routes(store));
  router.add(viewer::incident_view_route(
      [&store](std::string_view id) { return incidents::open_stored_file(store, id); }));
  router.add(dump::dump_route({.blocks = [&rec] { return rec.blocks; },
                               .metadata = [&rec] { return rec.metadata; },
                               .process_blocks = [&rec] { return rec.process_blocks; }},
                              {viewer::dump_page()}));
  http::Server server({.listen_address = "127.0.0.1:0"}, std::move(router));
  // Before the url line, which the test waits for.
  std::cout << "oom_incident=" << oom.id << '\n';
  std::cout << "url=" << server.url() << " incident=" << entry.id << std::endl;
  int received = 0;
  sigwait(&signals, &received);
  return 0;
}
