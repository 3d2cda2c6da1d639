#include "replay_fixture.h"

#include <string>
#include <vector>

#include "flightrec/model/incident_description.h"
#include "flightrec/sampler/frame.h"
#include "flightrec/sampler/series.h"

namespace flightrec::replay::testing {
namespace {

using process::NetCounters;
using process::ProcessFrame;
using process::ProcessRow;
using process::SocketProtocol;
using process::SocketRow;
using sampler::SeriesKind;

recording::SeriesInfo counter(std::string name, recording::Labels labels, double scale) {
  return {std::move(name), std::move(labels), "", SeriesKind::counter, scale, "fixture"};
}
recording::SeriesInfo gauge(std::string name, double scale = 1.0) {
  return {std::move(name), {}, "", SeriesKind::gauge, scale, "fixture"};
}

recording::Metadata metadata() {
  recording::Metadata meta;
  meta.rate_ns = kRateNs;
  meta.host = "fixture-host";
  meta.flightrec_version = "0.1.0";
  for (const char* cpu : {"0", "1"}) {
    for (const char* mode : {"user", "system", "idle"}) {
      meta.series.push_back(counter("cpu_seconds_total", {{"cpu", cpu}, {"mode", mode}}, 0.01));
    }
  }
  meta.series.push_back(gauge("memory_total_bytes"));
  meta.series.push_back(gauge("memory_available_bytes"));
  meta.series.push_back(gauge("memory_swap_total_bytes"));
  meta.series.push_back(gauge("memory_swap_free_bytes"));
  meta.series.push_back(gauge("load1", 0.01));
  meta.series.push_back(gauge("load5", 0.01));
  meta.series.push_back(gauge("load15", 0.01));
  meta.series.push_back(counter("pressure_some_seconds_total", {{"resource", "memory"}}, 1e-6));
  meta.series.push_back(counter("disk_read_bytes_total", {{"device", "sda"}}, 1.0));
  meta.series.push_back(counter("disk_written_bytes_total", {{"device", "sda"}}, 1.0));
  meta.series.push_back(counter("network_receive_bytes_total", {{"device", "eth0"}}, 1.0));
  meta.series.push_back(counter("network_transmit_bytes_total", {{"device", "eth0"}}, 1.0));
  meta.series.push_back(counter("network_receive_bytes_total", {{"device", "lo"}}, 1.0));
  // The /proc/stat "cpu" line, which the all-CPU busy ratio comes from without cgroup v2.
  for (const char* mode : {"user", "system", "idle"}) {
    meta.series.push_back(counter("cpu_aggregate_seconds_total", {{"mode", mode}}, 0.01));
  }
  meta.extra = {{"incident.rule", "memory_available_bytes < 2e9"},
                {"incident.value", "1975517184"},
                {"incident.fired_at_ns", std::to_string(kTriggerNs)}};
  return meta;
}

std::vector<int64_t> frame_values(int i) {
  // Cumulative CPU ticks: cpu0 busy 3 frames in 4, cpu1 idle for 1 s then busy in system mode.
  const int64_t cpu0_busy = i - (i + 3) / 4;
  const int64_t cpu0_idle = (i + 3) / 4;
  const int64_t cpu1_system = i > 100 ? i - 100 : 0;
  const int64_t cpu1_idle = i - cpu1_system;
  return {cpu0_busy,
          0,
          cpu0_idle,
          0,
          cpu1_system,
          cpu1_idle,
          kMemTotal,
          3584 * kMiB - leak_rss(i),
          1024 * kMiB,
          i == kSwapAbsentFrame ? sampler::kAbsent : 960 * kMiB,
          50 + i,
          40,
          30,
          i > 200 ? (i - 200) * 2500 : 0,  // 25% of each 10 ms stalled after 2 s
          i * kDiskReadPerFrame,
          i * 10240,
          i * kNetRxPerFrame,
          i * 2000,
          i * 999'999,
          cpu0_busy,
          cpu1_system,
          cpu0_idle + cpu1_idle};
}

std::vector<std::shared_ptr<const store::Block>> blocks(size_t series) {
  std::vector<std::shared_ptr<const store::Block>> out;
  constexpr int kBlockFrames = 128;
  for (int first = 0; first < kFrames; first += kBlockFrames) {
    std::vector<sampler::FrameHeader> headers;
    std::vector<int64_t> values;
    for (int i = first; i < std::min(first + kBlockFrames, kFrames); ++i) {
      const int64_t t = int64_t{i} * kRateNs;
      headers.push_back({static_cast<uint64_t>(i), t, kStartNs + t});
      const auto row = frame_values(i);
      values.insert(values.end(), row.begin(), row.end());
    }
    out.push_back(store::Block::encode(headers, values, static_cast<uint32_t>(series), kRateNs));
  }
  return out;
}

ProcessRow process(int32_t pid, int32_t ppid, int32_t session, uint32_t uid, std::string comm,
                   std::string cmdline, int64_t rss) {
  ProcessRow row;
  row.pid = pid;
  row.ppid = ppid;
  row.pgrp = pid;
  row.session = session;
  row.uid = uid;
  row.state = 'S';
  row.comm = std::move(comm);
  row.cmdline = std::move(cmdline);
  row.start_time_unix_ns = kStartNs - 1'000'000'000 + pid;
  row.rss_bytes = static_cast<uint64_t>(rss);
  row.vsz_bytes = row.rss_bytes * 2;
  row.threads = 1;
  return row;
}

ProcessFrame process_frame(int k) {
  const auto ms = [](int64_t n) { return static_cast<uint64_t>(n * 1'000'000); };
  ProcessFrame frame;
  frame.time_unix_ns = kStartNs + k * kProcessPeriodNs;
  auto init = process(1, 0, 1, 0, "systemd", "/sbin/init", 12 * kMiB);
  init.cpu_system_ns = ms(1000 + k);
  auto kthreadd = process(2, 0, 0, 0, "kthreadd", "", 0);
  kthreadd.kernel_thread = true;
  auto sshd = process(100, 1, 100, 0, "sshd", "sshd: alice [priv]", 8 * kMiB);
  sshd.cpu_user_ns = ms(30);
  auto bash = process(200, 100, 200, 1000, "bash", "-bash", 5 * kMiB);
  bash.tty_nr = 136 << 8;  // pts/0
  bash.cpu_user_ns = ms(120);
  auto leak = process(201, 200, 200, 1000, "python3", "/usr/bin/python3 leak.py", leak_rss(25 * k));
  leak.tty_nr = bash.tty_nr;
  leak.cpu_user_ns = ms(50 * k);  // 20% of a core
  leak.io_read_bytes = 0;
  leak.io_write_bytes = static_cast<uint64_t>(k * kMiB);
  auto burn = process(202, 200, 200, 1000, "stress", "stress --cpu 1", 2 * kMiB);
  burn.tty_nr = bash.tty_nr;
  burn.cpu_user_ns = ms(k > 4 ? 250 * (k - 4) : 0);  // a whole core from 1 s
  auto nginx = process(300, 1, 300, 33, "nginx", "nginx: worker process", 20 * kMiB);
  nginx.cpu_user_ns = ms(10 * k);  // 4%
  nginx.io_read_bytes = static_cast<uint64_t>(k * 4096);
  nginx.io_write_bytes = 0;
  nginx.net = NetCounters{static_cast<uint64_t>(k * 50'000), static_cast<uint64_t>(k * 25'000),
                          static_cast<uint64_t>(k * 40), static_cast<uint64_t>(k * 30)};
  nginx.net_device = "eth0";
  frame.processes = {init, kthreadd, sshd, bash, leak, burn};
  if (k >= 5 && k <= 7) {
    auto short_lived = process(203, 200, 200, 1000, "make", "make -j2", 3 * kMiB);
    short_lived.cpu_user_ns = ms(100 * (k - 4));
    short_lived.exited = k == 7;
    if (short_lived.exited) short_lived.state = 'x';
    frame.processes.push_back(short_lived);
  }
  frame.processes.push_back(nginx);

  const auto tcp = [](std::string local, std::string remote, uint8_t state, int32_t pid,
                      uint32_t uid) {
    SocketRow s;
    s.protocol = SocketProtocol::tcp;
    s.family = 2;  // AF_INET
    s.state = state;
    s.listening = state == 10;
    s.local = std::move(local);
    s.remote = std::move(remote);
    s.pid = pid;
    s.uid = uid;
    return s;
  };
  auto web = tcp("10.0.0.1:80", "10.0.0.2:51000", 1, 300, 33);
  web.tx_bytes = static_cast<uint64_t>(k * 50'000);
  web.rx_bytes = static_cast<uint64_t>(k * 25'000);
  auto dhcp = tcp("0.0.0.0:68", "", 7, 1, 0);
  dhcp.protocol = SocketProtocol::udp;
  dhcp.listening = true;
  frame.sockets = {tcp("0.0.0.0:80", "", 10, 300, 33), tcp("0.0.0.0:22", "", 10, 100, 0), web,
                   tcp("10.0.0.1:22", "10.0.0.9:40000", 1, 100, 0), dhcp};
  frame.unattributed = NetCounters{static_cast<uint64_t>(k * 1000), 0, static_cast<uint64_t>(k), 0};
  return frame;
}

}  // namespace

ReplayData fixture() {
  ReplayData data;
  data.meta = metadata();
  data.blocks = blocks(data.meta.series.size());
  for (int k = 0; k < kProcessFrames; ++k) data.process_frames.push_back(process_frame(k));
  return data;
}

ReplayData oom_fixture() {
  ReplayData data = fixture();
  const auto ns = [](int64_t value) { return std::to_string(value); };
  const model::IncidentDescription incident{
      .kind = model::IncidentKind::oom_kill,
      .rule = "oom_kill",
      .condition = "oom_kills_per_second > 0",
      .value = 100,
      .series = "oom_kills_per_second",
      .fired_at_ns = kTriggerNs,
      .window_from_ns = kStartNs,
      .window_to_ns = kStartNs + 3'000'000'000,
      .details = {{"oom.victim_pid", "201"},
                  {"oom.victim_command", "python3"},
                  {"oom.victim_rss_bytes", ns(leak_rss(190))},
                  {"oom.killed_at_ns", ns(kOomKillNs)},
                  {"oom.top_rss_at_ns", ns(kStartNs + 1'750'000'000)},
                  {"oom.top_rss.1", "pid=201 rss_bytes=" + ns(leak_rss(175)) + " comm=python3"},
                  {"oom.top_rss.2", "pid=300 rss_bytes=" + ns(20 * kMiB) + " comm=nginx"},
                  {"oom.victim_rss_samples", "8"},
                  {"oom.victim_last_rss_bytes", ns(leak_rss(175))},
                  {"oom.victim_last_rss_at_ns", ns(kStartNs + 1'750'000'000)},
                  {"oom.victim_peak_rss_bytes", ns(leak_rss(175))},
                  {"oom.victim_peak_rss_at_ns", ns(kStartNs + 1'750'000'000)}}};
  data.meta.extra.clear();
  model::encode_incident(incident, data.meta.extra);
  return data;
}

UserNames fixture_users() {
  return [](uint32_t uid) -> std::string {
    if (uid == 0) return "root";
    if (uid == 33) return "www-data";
    if (uid == 1000) return "alice";
    return std::to_string(uid);
  };
}

}  // namespace flightrec::replay::testing
