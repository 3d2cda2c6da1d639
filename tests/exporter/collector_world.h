#pragma once
// What exporter's collectors read, with a few frames recorded: for its collector tests, and for
// the daemon's whole /metrics composition (tests/app/collectors_test.cpp), which adds the
// consumers' collectors.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "fake_proc_tree.h"
#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/sampler/sampler.h"

namespace flightrec::testing {

using namespace std::chrono_literals;

struct CollectorWorld {
  sampler::Schema schema = [] {
    sampler::Schema s(2);
    s[0] = {.name = "memory_total_bytes", .help = "Total memory.", .unit = "bytes"};
    s[1] = {.name = "memory_available_bytes", .help = "Available memory.", .unit = "bytes"};
    return s;
  }();
  sampler::Sampler sampler{std::vector<std::unique_ptr<sampler::Source>>{}, 1ms};
  sampler::FrameQueue queue{2, 64};
  store::Ring ring{{.series = 2, .rate = 1ms, .duration = 10s, .max_bytes = 1 << 20}};
  recorder::Recorder recorder{queue, ring, schema, 1ms, 15s};
  exporter::metrics::ProcessMetrics processes{15s, 5, "off"};
  FakeProcTree proc;
  recorder::ProcessRecorderStats process_stats;
  store::ProcessRing process_ring{{}};
  http::ServerStats http_stats;

  CollectorWorld() {
    for (uint64_t t = 0; t < 10; ++t) {
      REQUIRE(
          queue.push({t, static_cast<int64_t>(t) * 1'000'000, 0}, std::vector<int64_t>{1000, 900}));
    }
    recorder.drain();
    proc.file("self/task/7/comm", "sampler\n").file("self/task/7/schedstat", "2000000000 5 9\n");
    proc.symlink("self/fd/3", "anon_inode:bpf-prog").file("sys/kernel/bpf_stats_enabled", "1\n");
  }

  [[nodiscard]] exporter::metrics::SelfCostCollector::Settings self_cost() const {
    return {.procfs = proc.root(),
            .bpf_reader = [](int /*fd*/) -> std::optional<ebpf::BpfProgramRun> {
              return ebpf::BpfProgramRun{
                  .id = 1, .name = "exits", .run_time_ns = 500, .run_count = 10};
            },
            .enable_bpf_stats = false};
  }
};

}  // namespace flightrec::testing
