// One recording, three readers: replay's system view, the viewer's key signals and the signal
// deriver fed frame by frame as the recorder feeds it live must show the same total CPU and memory
// used at the same instants (issue 11: replay once recomputed CPU from /proc/stat while everything
// else used the root cgroup's usage).
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "flightrec/model/signals.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/replay/model.h"
#include "flightrec/store/cursor.h"
#include "flightrec/viewer/key_signals.h"

using namespace flightrec;

namespace {

const std::string kExample =
    std::string(FLIGHTREC_REPLAY_TEST_DIR) + "/../../examples/memory-leak.flightrec";

struct LiveSignals {
  std::vector<int64_t> times_ns, mono_ns;
  std::vector<std::vector<int64_t>> frames;
  std::vector<double> cpu_total, memory_used;
  size_t cpu_signal = 0;
};

size_t signal_index(const std::vector<model::Signal>& signals, std::string_view name,
                    std::string_view cpu = {}) {
  for (size_t i = 0; i < signals.size(); ++i) {
    if (signals[i].desc.name != name) continue;
    if (cpu.empty()) return i;
    for (const auto& [key, value] : signals[i].desc.labels) {
      if (key == "cpu" && value == cpu) return i;
    }
  }
  FAIL("the deriver has no " << name);
  return 0;
}

// Every frame in order through one deriver, as the recorder thread derives them.
LiveSignals derive_live(const recording::Metadata& meta,
                        const std::vector<std::shared_ptr<const store::Block>>& blocks) {
  sampler::Schema schema;
  for (const auto& series : meta.series) {
    sampler::SeriesDesc desc;
    desc.name = series.name;
    desc.scale = series.scale;
    desc.labels = series.labels;
    schema.push_back(desc);
  }
  model::SignalDeriver deriver(schema, std::chrono::nanoseconds(meta.rate_ns));
  const size_t cpu = signal_index(deriver.signals(), "cpu_busy_ratio", "total");
  const size_t memory = signal_index(deriver.signals(), "memory_used_bytes");
  LiveSignals live;
  live.cpu_signal = cpu;
  store::Cursor cursor(blocks, {});
  std::vector<int64_t> values(meta.series.size());
  std::vector<double> derived(deriver.signals().size());
  while (cursor.next()) {
    cursor.values(values);
    deriver.derive({cursor.tick(), cursor.mono_ns(), cursor.real_ns()}, values, derived);
    live.times_ns.push_back(cursor.real_ns());
    live.mono_ns.push_back(cursor.mono_ns());
    live.frames.push_back(values);
    live.cpu_total.push_back(derived[cpu]);
    live.memory_used.push_back(derived[memory]);
  }
  return live;
}

const viewer::Line& line(const viewer::SignalWindow& window, std::string_view chart,
                         std::string_view label) {
  for (const auto& c : window.charts) {
    if (c.id != chart) continue;
    for (const auto& l : c.lines) {
      if (l.label == label) return l;
    }
  }
  FAIL("the viewer has no " << chart << " line " << label);
  throw;
}

}  // namespace

TEST_CASE("replayTheViewerAndTheLiveDeriverShowTheSameTotalCpuAndMemoryUsed", "[replay][signals]") {
  auto read = recording::read_recording(kExample);
  REQUIRE(read.ok());
  const recording::Metadata meta = read->meta;
  const auto blocks = read->blocks;
  const LiveSignals live = derive_live(meta, blocks);
  REQUIRE(live.times_ns.size() > 1000);

  const auto window = viewer::key_signals(meta, blocks, {}, SIZE_MAX);
  REQUIRE(window.bucket_ticks == 1);
  REQUIRE(window.times_ns == live.times_ns);
  const auto& viewer_cpu = line(window, "cpu", "total");
  const auto& viewer_memory = line(window, "memory", "used");

  const replay::Model model(replay::from_recording(*std::move(read)),
                            [](uint32_t) { return std::string(); });
  REQUIRE(model.timeline().size() == live.times_ns.size());

  size_t compared = 0;
  for (size_t i = 0; i < live.times_ns.size(); i += 37) {
    INFO("frame " << i);
    if (std::isnan(live.cpu_total[i])) continue;
    const auto view = model.system(i, 0);  // rates over the shortest interval: one sample
    CHECK(view.time_ns == live.times_ns[i]);
    REQUIRE(view.cpu_total.has_value());
    CHECK(*view.cpu_total == Approx(live.cpu_total[i]).margin(1e-9));
    CHECK(viewer_cpu.values[i] == Approx(live.cpu_total[i]).margin(1e-9));
    REQUIRE(view.mem_used_bytes.has_value());
    CHECK(*view.mem_used_bytes == Approx(live.memory_used[i]));
    CHECK(viewer_memory.values[i] == Approx(live.memory_used[i]));
    ++compared;
  }
  CHECK(compared > 20);
}

TEST_CASE("replayOverALongerIntervalKeepsTheSameDefinitionOfTotalCpu", "[replay][signals]") {
  auto read = recording::read_recording(kExample);
  REQUIRE(read.ok());
  const model::SignalDeriver deriver(read->meta);
  const LiveSignals live = derive_live(read->meta, read->blocks);
  const replay::Model model(replay::from_recording(*std::move(read)),
                            [](uint32_t) { return std::string(); });
  constexpr int64_t kSecond = 1'000'000'000;
  size_t compared = 0;
  for (size_t i = 1; i < live.times_ns.size(); i += 101) {
    INFO("frame " << i);
    const auto start = model.timeline().interval_start(i, kSecond);
    REQUIRE(start.has_value());
    const double expected =
        deriver.between(live.cpu_signal, {live.mono_ns[*start], live.frames[*start]},
                        {live.mono_ns[i], live.frames[i]});
    const auto view = model.system(i, kSecond);
    if (std::isnan(expected)) continue;
    REQUIRE(view.cpu_total.has_value());
    CHECK(*view.cpu_total == Approx(expected).margin(1e-9));
    ++compared;
  }
  CHECK(compared > 5);
}
