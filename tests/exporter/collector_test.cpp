#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "fake_proc_tree.h"
#include "flightrec/exporter/exposition/serialize.h"
#include "flightrec/exporter/metrics/collectable.h"
#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/sampler/sampler.h"
#include "temp_dir.h"

using namespace flightrec;
using namespace flightrec::exporter::metrics;
using namespace std::chrono_literals;

namespace {

class DiscardingSink final : public model::IncidentSink {
 public:
  model::WriteOutcome write(const model::IncidentCapture&, store::Snapshot) override {
    return model::WriteOutcome::written;
  }
};

// Every component /metrics reads, with a few frames recorded, as the daemon composes them.
struct World {
  testing::TempDir dir{"flightrec-collectors"};
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
  incidents::IncidentStore incident_store{{.dir = dir.path()}};
  DiscardingSink sink;
  trigger::IncidentWriter incident_writer{sink};
  trigger::ManualTriggerGate manual_gate{std::chrono::seconds(5), std::chrono::seconds(60)};
  ProcessMetrics processes{15s, 5, "off"};
  testing::FakeProcTree proc;
  recorder::ProcessRecorderStats process_stats;
  store::ProcessRing process_ring{{}};
  http::ServerStats http_stats;

  World() {
    for (uint64_t t = 0; t < 10; ++t) {
      REQUIRE(
          queue.push({t, static_cast<int64_t>(t) * 1'000'000, 0}, std::vector<int64_t>{1000, 900}));
    }
    recorder.drain();
    proc.file("self/task/7/comm", "sampler\n").file("self/task/7/schedstat", "2000000000 5 9\n");
    proc.symlink("self/fd/3", "anon_inode:bpf-prog").file("sys/kernel/bpf_stats_enabled", "1\n");
  }

  [[nodiscard]] SelfCostCollector::Settings self_cost() const {
    return {.procfs = proc.root(),
            .bpf_reader = [](int /*fd*/) -> std::optional<ebpf::BpfProgramRun> {
              return ebpf::BpfProgramRun{
                  .id = 1, .name = "exits", .run_time_ns = 500, .run_count = 10};
            },
            .enable_bpf_stats = false};
  }

  // The daemon's collectors, in the daemon's order (app/src/daemon.cpp).
  ScrapeCollector& add_all(Collectables& collectables) {
    collectables.emplace<SystemCollector>(schema, recorder);
    collectables.emplace<ProcessRankingsCollector>(processes);
    collectables.emplace<InstanceCollector>(InstanceCollector::Settings{
        .start_real_ns = 1, .sampler_rate = 1ms, .export_window = [] { return 15s; }});
    collectables.emplace<SamplerCollector>(sampler.stats());
    collectables.emplace<RecorderCollector>(recorder, ring);
    collectables.emplace<IncidentsCollector>(incident_store, incident_writer, manual_gate);
    collectables.emplace<ProcessTierCollector>(process_stats, process_ring);
    collectables.emplace<SelfCostCollector>(self_cost());
    collectables.emplace<HttpCollector>(http_stats);
    return collectables.emplace<ScrapeCollector>();
  }
};

std::vector<std::string> names_of(const Collectable& collector) {
  std::vector<prometheus::MetricFamily> families;
  exporter::exposition::ExtrasByFamily extras;
  Families out(families, extras, 0, 9'000'000);
  collector.collect(out);
  std::vector<std::string> names;
  for (const auto& family : families) names.push_back(family.name);
  return names;
}

std::vector<std::string> names_of(const Collectables& collectables,
                                  std::vector<prometheus::MetricFamily>& families,
                                  exporter::exposition::ExtrasByFamily& extras) {
  collectables.collect(9'000'000, families, extras);
  std::vector<std::string> names;
  for (const auto& family : families) names.push_back(family.name);
  return names;
}

// True when every name starts with one of `prefixes`.
bool all_start_with(const std::vector<std::string>& names,
                    std::initializer_list<std::string_view> prefixes) {
  for (const auto& name : names) {
    bool found = false;
    for (const auto prefix : prefixes) found = found || name.starts_with(prefix);
    if (!found) return false;
  }
  return !names.empty();
}

}  // namespace

TEST_CASE("shouldLetEachCollectorContributeOnlyItsOwnFamilies", "[exporter][collectors]") {
  World w;
  CHECK(names_of(SystemCollector(w.schema, w.recorder)) ==
        std::vector<std::string>{"flightrec_memory_total_bytes", "flightrec_memory_available_bytes",
                                 "flightrec_memory_used_bytes", "flightrec_memory_used_ratio",
                                 "flightrec_memory_used_tick_ratio"});
  CHECK(names_of(InstanceCollector({.start_real_ns = 1})) ==
        std::vector<std::string>{"flightrec_build_info", "flightrec_start_time_seconds",
                                 "flightrec_sampler_rate_seconds",
                                 "flightrec_export_window_seconds"});
  CHECK(all_start_with(names_of(SamplerCollector(w.sampler.stats())),
                       {"flightrec_sampler_", "flightrec_source_"}));
  CHECK(all_start_with(names_of(RecorderCollector(w.recorder, w.ring)),
                       {"flightrec_recorder_", "flightrec_ring_"}));
  CHECK(all_start_with(
      names_of(IncidentsCollector(w.incident_store, w.incident_writer, w.manual_gate)),
      {"flightrec_incident", "flightrec_manual_trigger_"}));
  CHECK(all_start_with(names_of(ProcessTierCollector(w.process_stats, w.process_ring)),
                       {"flightrec_process_tier_", "flightrec_process_ring_"}));
  CHECK(names_of(SelfCostCollector(w.self_cost())) ==
        std::vector<std::string>{"flightrec_self_cpu_seconds_total", "flightrec_bpf_stats_enabled",
                                 "flightrec_bpf_run_seconds_total",
                                 "flightrec_bpf_run_count_total"});
  w.http_stats.count_response("/metrics", 200);
  CHECK(names_of(HttpCollector(w.http_stats)) ==
        std::vector<std::string>{
            "flightrec_http_requests_total", "flightrec_http_gate_connections_accepted_total",
            "flightrec_http_gate_connections_closed_total", "flightrec_http_auth_failures_total"});
  CHECK(names_of(ScrapeCollector()) ==
        std::vector<std::string>{"flightrec_scrape_duration_seconds",
                                 "flightrec_scrape_cpu_seconds_total", "flightrec_scrapes_total"});
}

TEST_CASE("shouldNeverExposeOneFamilyFromTwoCollectors", "[exporter][collectors]") {
  World w;
  Collectables collectables(1);
  w.add_all(collectables);
  std::vector<prometheus::MetricFamily> families;
  exporter::exposition::ExtrasByFamily extras;
  const auto names = names_of(collectables, families, extras);
  CHECK(std::set<std::string>(names.begin(), names.end()).size() == names.size());
  // Nor anything the serializer would have to leave out (units, created times).
  CHECK(exporter::exposition::serialize(exporter::exposition::Format::openmetrics_1_0_0, families,
                                        extras)
            .warnings.empty());
}

TEST_CASE("shouldCollectInRegistrationOrderTheSameWayEveryScrape", "[exporter][collectors]") {
  World w;
  Collectables collectables(1);
  auto& scrapes = w.add_all(collectables);
  std::vector<prometheus::MetricFamily> first_families;
  exporter::exposition::ExtrasByFamily first_extras;
  const auto first = names_of(collectables, first_families, first_extras);
  scrapes.record(exporter::exposition::Format::openmetrics_1_0_0, 1'000'000, 500'000);
  std::vector<prometheus::MetricFamily> second_families;
  exporter::exposition::ExtrasByFamily second_extras;
  CHECK(names_of(collectables, second_families, second_extras) == first);
  CHECK(first.front() == "flightrec_memory_total_bytes");  // the machine first
  CHECK(first.back() == "flightrec_scrapes_total");        // the scrape itself last
  // What the scrape recorded shows in the next one.
  const auto& scrape_counts = second_families.back();
  REQUIRE(scrape_counts.metric.size() == 2);
  CHECK(scrape_counts.metric[1].label[0].value == "openmetrics-1.0.0");
  CHECK(scrape_counts.metric[1].counter.value == 1);
}

TEST_CASE("shouldExposeWhetherTheSamplerIsRealtimeAndItsElapsedTime", "[exporter][collectors]") {
  sampler::SamplerStats stats;
  const auto gauge = [&stats](const std::string& name) {
    std::vector<prometheus::MetricFamily> families;
    exporter::exposition::ExtrasByFamily extras;
    Families out(families, extras, 0, 9'000'000);
    SamplerCollector(stats).collect(out);
    for (const auto& family : families) {
      if (family.name == name && family.metric.size() == 1) return family.metric[0].gauge.value;
    }
    FAIL("no single-sample family " << name);
    return -1.0;
  };
  CHECK(gauge("flightrec_sampler_realtime") == 0);
  CHECK(gauge("flightrec_sampler_elapsed_seconds") == 0);
  stats.realtime = true;
  stats.elapsed_ns = 2'500'000'000;
  CHECK(gauge("flightrec_sampler_realtime") == 1);
  CHECK(gauge("flightrec_sampler_elapsed_seconds") == Approx(2.5));
}

TEST_CASE("shouldExposeTheCpuBudgetWhatItIsComparedWithAndEachSourcesRateChanges",
          "[exporter][collectors]") {
  sampler::SamplerStats stats;
  auto source = std::make_unique<sampler::SourceStats>();
  source->name = "vmstat";
  source->configured_rate_ns = 20'000'000;
  source->rate_ns = 80'000'000;  // lowered twice
  source->rate_lowerings = 2;
  stats.sources.push_back(std::move(source));
  stats.cpu_budget = 0.1;
  const auto collect = [&stats] {
    std::vector<prometheus::MetricFamily> families;
    exporter::exposition::ExtrasByFamily extras;
    Families out(families, extras, 0, 9'000'000);
    SamplerCollector(stats).collect(out);
    return families;
  };
  const auto find = [](const std::vector<prometheus::MetricFamily>& families,
                       const std::string& name) -> const prometheus::MetricFamily* {
    for (const auto& family : families) {
      if (family.name == name) return &family;
    }
    return nullptr;
  };

  auto families = collect();
  REQUIRE(find(families, "flightrec_sampler_cpu_budget_ratio") != nullptr);
  CHECK(find(families, "flightrec_sampler_cpu_budget_ratio")->metric[0].gauge.value == 0.1);
  // Nothing measured yet: no value rather than a made-up 0.
  CHECK(find(families, "flightrec_sampler_cpu_budget_used_ratio") == nullptr);
  // The rate now, not the configured one.
  REQUIRE(find(families, "flightrec_source_rate_seconds") != nullptr);
  CHECK(find(families, "flightrec_source_rate_seconds")->metric[0].gauge.value == Approx(0.08));
  const auto* changes = find(families, "flightrec_source_rate_changes_total");
  REQUIRE(changes != nullptr);
  REQUIRE(changes->metric.size() == 2);
  CHECK(changes->metric[0].label[1].value == "lowered");
  CHECK(changes->metric[0].counter.value == 2);
  CHECK(changes->metric[1].label[1].value == "restored");
  CHECK(changes->metric[1].counter.value == 0);

  stats.cpu_used = 0.123;
  families = collect();
  REQUIRE(find(families, "flightrec_sampler_cpu_budget_used_ratio") != nullptr);
  CHECK(find(families, "flightrec_sampler_cpu_budget_used_ratio")->metric[0].gauge.value ==
        Approx(0.123));
}

TEST_CASE("shouldExposeResponsesByHandlerAndCodeAndEveryReasonForClosesAndRefusals",
          "[exporter][collectors]") {
  http::ServerStats stats;
  stats.count_response("/metrics", 200);
  stats.count_response("/metrics", 200);
  stats.count_response(http::kNoRoute, 404);
  stats.count_close(http::GateClose::relay_timeout);
  stats.count_auth_failure(http::AuthFailure::wrong_password);
  std::vector<prometheus::MetricFamily> families;
  exporter::exposition::ExtrasByFamily extras;
  Families out(families, extras, 0, 9'000'000);
  HttpCollector(stats).collect(out);
  const std::string text =
      exporter::exposition::serialize(exporter::exposition::Format::text_0_0_4, families, extras)
          .body;
  CHECK_THAT(text,
             Catch::Contains("flightrec_http_requests_total{handler=\"/metrics\",code=\"200\"} 2\n"
                             "flightrec_http_requests_total{handler=\"none\",code=\"404\"} 1\n"));
  // Every reason is there from the start, so a rate over a first close is not lost.
  CHECK_THAT(text,
             Catch::Contains(
                 "flightrec_http_gate_connections_closed_total{reason=\"header_timeout\"} 0\n"));
  CHECK_THAT(text,
             Catch::Contains(
                 "flightrec_http_gate_connections_closed_total{reason=\"relay_timeout\"} 1\n"));
  CHECK_THAT(text,
             Catch::Contains("flightrec_http_auth_failures_total{reason=\"wrong_password\"} 1\n"));
  CHECK_THAT(text, Catch::Contains(
                       "flightrec_http_auth_failures_total{reason=\"client_certificate\"} 0\n"));
}
