#include "flightrec/exporter/metrics/process_metrics.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>

// No `using namespace flightrec`: its namespace `process` would clash with the helper process().
namespace exporter = flightrec::exporter;
using exporter::metrics::ProcessMetrics;
using flightrec::process::NetCounters;
using flightrec::process::ProcessFrame;
using flightrec::process::ProcessRow;

namespace {

constexpr int64_t kSecond = 1'000'000'000;

ProcessRow process(int32_t pid, const char* comm, uint64_t cpu_ns, uint64_t rss) {
  ProcessRow row;
  row.pid = pid;
  row.comm = comm;
  row.state = 'S';
  row.start_time_unix_ns = 1000 + pid;
  row.cpu_user_ns = cpu_ns;
  row.rss_bytes = rss;
  return row;
}

// family name -> "pid/comm[/direction]" -> value
std::map<std::string, std::map<std::string, double>> collect(const ProcessMetrics& metrics) {
  std::vector<prometheus::MetricFamily> families;
  flightrec::exposition::ExtrasByFamily extras;
  metrics.collect(families, extras, 0);
  std::map<std::string, std::map<std::string, double>> out;
  for (const auto& family : families) {
    for (const auto& metric : family.metric) {
      std::string key;
      for (const auto& label : metric.label) key += (key.empty() ? "" : "/") + label.value;
      out[family.name][key] = family.type == prometheus::MetricType::Counter ? metric.counter.value
                                                                             : metric.gauge.value;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("top processes by CPU are ranked on their mean use over the window", "[process]") {
  ProcessMetrics metrics(std::chrono::seconds(10), 2, "");
  ProcessFrame frame;
  frame.time_unix_ns = 100 * kSecond;
  frame.processes = {process(1, "init", 0, 10), process(2, "busy", 0, 20),
                     process(3, "half", 0, 30)};
  metrics.observe(frame);
  frame.time_unix_ns += 2 * kSecond;
  frame.processes = {process(1, "init", 0, 10), process(2, "busy", 4 * kSecond, 20),
                     process(3, "half", 1 * kSecond, 30)};
  metrics.observe(frame);

  auto m = collect(metrics);
  const auto& cpu = m["flightrec_top_process_cpu_ratio"];
  REQUIRE(cpu.size() == 2);  // top_n bounds the label set
  CHECK(cpu.at("2/busy") == Approx(2.0));
  CHECK(cpu.at("3/half") == Approx(0.5));
  const auto& memory = m["flightrec_top_process_resident_memory_bytes"];
  CHECK(memory.size() == 2);
  CHECK(memory.at("3/half") == 30);
  CHECK(m["flightrec_processes"].at("S") == 3);
}

TEST_CASE("frames older than the window stop counting", "[process]") {
  ProcessMetrics metrics(std::chrono::seconds(5), 10, "");
  ProcessFrame frame;
  for (int64_t s = 0; s <= 20; ++s) {
    frame.time_unix_ns = s * kSecond;
    // Busy for the first 10 s only; the window (last 5 s) must show it idle.
    const uint64_t cpu = static_cast<uint64_t>(std::min<int64_t>(s, 10)) * kSecond;
    frame.processes = {process(7, "burst", cpu, 1)};
    metrics.observe(frame);
  }
  // Idle over the window: not in the CPU ranking at all (zeros would only fill it with noise).
  CHECK(collect(metrics)["flightrec_top_process_cpu_ratio"].count("7/burst") == 0);
}

TEST_CASE("attributed traffic keeps counting when a process exits; rates rank network",
          "[process]") {
  ProcessMetrics metrics(std::chrono::seconds(10), 10, "ebpf");
  ProcessFrame frame;
  frame.time_unix_ns = 0;
  auto sender = process(5, "sender", 0, 1);
  sender.net = NetCounters{1000, 0, 1, 0};
  frame.processes = {sender};
  frame.unattributed = NetCounters{3, 4, 1, 1};
  metrics.observe(frame);
  frame.time_unix_ns = kSecond;
  sender.net = NetCounters{5000, 200, 5, 1};
  frame.processes = {sender};
  metrics.observe(frame);
  frame.time_unix_ns = 2 * kSecond;
  frame.processes = {};  // the sender exited and its row went away
  metrics.observe(frame);

  auto m = collect(metrics);
  CHECK(m["flightrec_network_attributed_bytes_total"].at("transmit") == 5000);
  CHECK(m["flightrec_network_attributed_bytes_total"].at("receive") == 200);
  CHECK(m["flightrec_network_unattributed_bytes_total"].at("receive") == 4);
  CHECK(m["flightrec_network_backend_info"].at("ebpf") == 1);
  // Born inside the window (start time after its first frame), so all 5000 bytes count, over the
  // window's 2 s, as Prometheus users divide.
  CHECK(m["flightrec_top_process_network_bytes_per_second"].at("5/sender/transmit") ==
        Approx(2500.0));
  CHECK(m["flightrec_network_attributed_packets_total"].at("transmit") == 5);
}

TEST_CASE("a reused pid is a different process", "[process]") {
  ProcessMetrics metrics(std::chrono::seconds(10), 10, "");
  ProcessFrame frame;
  frame.time_unix_ns = 0;
  frame.processes = {process(9, "old", 50 * kSecond, 1)};
  metrics.observe(frame);
  frame.time_unix_ns = kSecond;
  auto reused = process(9, "new", kSecond / 2, 1);
  reused.start_time_unix_ns += 1;
  frame.processes = {reused};
  metrics.observe(frame);
  frame.time_unix_ns = 2 * kSecond;
  reused.cpu_user_ns = kSecond;
  frame.processes = {reused};
  metrics.observe(frame);
  // The new process used 0.5 s over 1 s; mixing it with the old one would give a negative or
  // huge rate.
  CHECK(collect(metrics)["flightrec_top_process_cpu_ratio"].at("9/new") == Approx(0.5));
}

TEST_CASE("a process seen only once, after it exited, still ranks on what it did in the window",
          "[process]") {
  ProcessMetrics metrics(std::chrono::seconds(10), 10, "ebpf");
  ProcessFrame frame;
  frame.time_unix_ns = 100 * kSecond;
  frame.processes = {process(1, "init", 0, 1)};
  metrics.observe(frame);
  frame.time_unix_ns = 104 * kSecond;
  auto blip = process(77, "blip", 2 * kSecond, 1 << 20);  // 2 s of CPU, born after 100 s
  blip.start_time_unix_ns = 101 * kSecond;
  blip.exited = true;
  blip.net = NetCounters{8000, 0, 4, 0};
  frame.processes = {process(1, "init", 0, 1), blip};
  metrics.observe(frame);
  auto m = collect(metrics);
  CHECK(m["flightrec_top_process_cpu_ratio"].at("77/blip") == Approx(0.5));  // 2 s over 4 s
  CHECK(m["flightrec_top_process_network_bytes_per_second"].at("77/blip/transmit") ==
        Approx(2000.0));
}

TEST_CASE("traffic before a long-lived process's first sighting in the window is not counted",
          "[process]") {
  ProcessMetrics metrics(std::chrono::seconds(10), 10, "ebpf");
  ProcessFrame frame;
  auto daemon = process(9, "daemon", 0, 1);
  daemon.start_time_unix_ns = 1;  // long before the window
  daemon.net = NetCounters{1'000'000, 0, 1, 0};
  frame.time_unix_ns = 100 * kSecond;
  frame.processes = {daemon};
  metrics.observe(frame);
  daemon.net = NetCounters{1'004'000, 0, 2, 0};
  frame.time_unix_ns = 102 * kSecond;
  frame.processes = {daemon};
  metrics.observe(frame);
  CHECK(collect(metrics)["flightrec_top_process_network_bytes_per_second"].at(
            "9/daemon/transmit") == Approx(2000.0));
}
