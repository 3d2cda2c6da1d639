// The viewer's pages over a synthetic incident, for the browser test: writes the incident into
// DIR with the real IncidentStore (an atomically written recording file), serves
// /incidents[/{id}[/view]] and /dump[?format=html] on a free loopback port, and prints
// "oom_incident=<id>" (the same recording as an OOM incident), "container_incident=<id>" (the
// same with container frames), "memory_incident=<id>" (a memory rule's), "alert_incident=<id>" (an
// alert's, with labels) and then "url=<base url> incident=<id>" once it listens. Runs until
// killed.
#include <signal.h>

#include <iostream>

#include "flightrec/container/frame/container_frame_codec.h"
#include "flightrec/dump/dump_route.h"
#include "flightrec/http/server.h"
#include "flightrec/incidents/incident_store.h"
#include "flightrec/incidents/routes.h"
#include "flightrec/incidents/stored_file.h"
#include "flightrec/viewer/routes.h"
#include "synthetic_recording.h"

using namespace flightrec;

namespace {

constexpr int64_t kSecondNs = 1'000'000'000;
constexpr int64_t kPeriodNs = 100'000'000;
// CLOCK_MONOTONIC this much behind CLOCK_REALTIME, for the episodes' times.
constexpr int64_t kMonotonicBehindNs = 1'764'000'000'000'000'000;

// A frame a second over the recording: "shop/checkout-1/app" with a quota of 20 ms per 100 ms,
// throttled for 80 ms of every period from 25 s to 40 s (the kernel's episodes recorded), its
// memory growing towards its limit; "web" without limits beside it.
store::ContainerFrameList container_frames(int64_t seconds) {
  store::ContainerFrameList frames;
  int64_t throttled = 0;
  for (int64_t k = 0; k <= seconds; ++k) {
    container::ContainerFrame frame;
    frame.time_unix_ns = viewer::testing::kStartNs + k * kSecondNs;
    frame.mono_ns = frame.time_unix_ns - kMonotonicBehindNs;
    frame.episodes_recorded = true;
    for (int64_t p = (k - 1) * 10; k > 0 && p < k * 10; ++p) {
      if (p < 250 || p >= 400) continue;
      ++throttled;
      const int64_t start = viewer::testing::kStartNs + p * kPeriodNs - kMonotonicBehindNs;
      frame.episodes.push_back({.cgroup_id = 7001,
                                .start_ns = start + 20'000'000,
                                .end_ns = start + kPeriodNs,
                                .period_ns = kPeriodNs,
                                .quota_ns = 20'000'000,
                                .period_end_ns = start + kPeriodNs,
                                .cpus = 1,
                                .spans = 1,
                                .throttled_ns = 80'000'000,
                                .refills = 1,
                                .end_exact = true});
    }
    container::ContainerRow checkout;
    checkout.path = "/kubepods/burstable/pod1/checkout";
    checkout.id = std::string(64, 'a');
    checkout.runtime = container::Runtime::cri;
    checkout.cgroup_id = 7001;
    checkout.pod_namespace = "shop";
    checkout.pod = "checkout-1";
    checkout.container = "app";
    checkout.stats.cpu = {.usage_us = k * 150'000,
                          .periods = k * 10,
                          .throttled_periods = throttled,
                          .throttled_us = throttled * 80'000};
    checkout.stats.bandwidth = {.quota_us = 20'000, .period_us = 100'000};
    checkout.stats.memory.usage_bytes = (100 + 2 * k) << 20;
    checkout.stats.memory.limit_bytes = 256 << 20;
    checkout.stats.memory.high_bytes = 224 << 20;
    container::ContainerRow web;
    web.path = "/system.slice/docker-web.scope";
    web.id = std::string(64, 'b');
    web.runtime = container::Runtime::docker;
    web.name = "web";
    web.stats.cpu.usage_us = k * 40'000;
    web.stats.bandwidth = {.quota_us = container::kUnlimited, .period_us = 100'000};
    web.stats.memory.usage_bytes = (20 + k % 3) << 20;
    web.stats.memory.limit_bytes = container::kUnlimited;
    frame.containers = {checkout, web};
    frames.push_back(std::make_shared<const store::StoredContainerFrame>(
        store::StoredContainerFrame{frame.time_unix_ns, container::encode_container_frame(frame)}));
  }
  return frames;
}

}  // namespace

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
                                  .condition = "cpu_busy_ratio{cpu=\"total\"} > 0.8",
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
  // The same as a memory rule's incident (used memory grows 4 KiB a ms past 2 GiB) and as an
  // alert's.
  const auto memory = store.write({.rule = "memory_high",
                                   .condition = "memory_used_bytes > 2147483648",
                                   .value = 2147483648.0 + 30'000 * 4096,
                                   .series = "memory_used_bytes",
                                   .fired_at_ns = rec.trigger_ns,
                                   .window_from_ns = viewer::testing::kStartNs,
                                   .window_to_ns = rec.trigger_ns + 30'000'000'000},
                                  rec.metadata, rec.blocks, rec.process_blocks);
  const auto alert =
      store.write({.kind = model::IncidentKind::alert,
                   .rule = "alert",
                   .condition = "alertmanager alert",
                   .series = "HighLoad{instance=\"web-1\",severity=\"critical\"}",
                   .reason = "CPU above 90% on web-1",
                   .fired_at_ns = rec.trigger_ns,
                   .window_from_ns = viewer::testing::kStartNs,
                   .window_to_ns = rec.trigger_ns + 30'000'000'000,
                   .details = {{"alert.status", "firing"},
                               {"alert.label.alertname", "HighLoad"},
                               {"alert.label.instance", "web-1"},
                               {"alert.label.severity", "critical"},
                               {"alert.annotation.summary", "CPU above 90% on web-1"}}},
                  rec.metadata, rec.blocks, rec.process_blocks);
  for (const auto* written : {&memory, &alert}) {
    if (written->status != incidents::IncidentStatus::written) {
      std::cerr << "writing an incident failed: " << written->error << '\n';
      return 1;
    }
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
  // The same with container frames.
  const auto throttled =
      store.write({.rule = "container_throttled",
                   .value = 0.8,
                   .fired_at_ns = rec.trigger_ns,
                   .window_from_ns = viewer::testing::kStartNs,
                   .window_to_ns = rec.trigger_ns + 30'000'000'000},
                  rec.metadata, rec.blocks, rec.process_blocks, container_frames(60));
  if (throttled.status != incidents::IncidentStatus::written) {
    std::cerr << "writing the container incident failed: " << throttled.error << '\n';
    return 1;
  }
  std::cout << "oom_incident=" << oom.id << '\n';
  std::cout << "container_incident=" << throttled.id << '\n';
  std::cout << "memory_incident=" << memory.id << '\n';
  std::cout << "alert_incident=" << alert.id << '\n';
  std::cout << "url=" << server.url() << " incident=" << entry.id << std::endl;
  int received = 0;
  sigwait(&signals, &received);
  return 0;
}
