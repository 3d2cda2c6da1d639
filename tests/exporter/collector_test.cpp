#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "collector_world.h"
#include "family_names.h"
#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exposition/collectable.h"
#include "flightrec/exposition/serialize.h"

using namespace flightrec;
using namespace flightrec::exporter::metrics;
using exposition::Families;
using testing::all_start_with;
using testing::family_names;

TEST_CASE("shouldLetEachCollectorContributeOnlyItsOwnFamilies", "[exporter][collectors]") {
  testing::CollectorWorld w;
  CHECK(family_names(SystemCollector(w.schema, w.recorder)) ==
        std::vector<std::string>{"flightrec_memory_total_bytes", "flightrec_memory_available_bytes",
                                 "flightrec_memory_used_bytes", "flightrec_memory_used_ratio",
                                 "flightrec_memory_used_tick_ratio"});
  CHECK(family_names(InstanceCollector({.start_real_ns = 1})) ==
        std::vector<std::string>{"flightrec_build_info", "flightrec_start_time_seconds",
                                 "flightrec_sampler_rate_seconds",
                                 "flightrec_export_window_seconds"});
  CHECK(all_start_with(family_names(SamplerCollector(w.sampler.stats())),
                       {"flightrec_sampler_", "flightrec_source_"}));
  CHECK(all_start_with(family_names(RecorderCollector(w.recorder, w.ring)),
                       {"flightrec_recorder_", "flightrec_ring_"}));
  CHECK(all_start_with(family_names(ProcessTierCollector(w.process_stats, w.process_ring)),
                       {"flightrec_process_tier_", "flightrec_process_ring_"}));
  CHECK(family_names(SelfCostCollector(w.self_cost())) ==
        std::vector<std::string>{"flightrec_self_cpu_seconds_total", "flightrec_bpf_stats_enabled",
                                 "flightrec_bpf_run_seconds_total",
                                 "flightrec_bpf_run_count_total"});
  w.http_stats.count_response("/metrics", 200);
  CHECK(family_names(HttpCollector(w.http_stats)) ==
        std::vector<std::string>{
            "flightrec_http_requests_total", "flightrec_http_gate_connections_accepted_total",
            "flightrec_http_gate_connections_closed_total", "flightrec_http_auth_failures_total"});
  CHECK(family_names(ScrapeCollector()) ==
        std::vector<std::string>{"flightrec_scrape_duration_seconds",
                                 "flightrec_scrape_cpu_seconds_total", "flightrec_scrapes_total"});
}

TEST_CASE("shouldExposeWhetherTheSamplerIsRealtimeAndItsElapsedTime", "[exporter][collectors]") {
  sampler::SamplerStats stats;
  const auto gauge = [&stats](const std::string& name) {
    std::vector<prometheus::MetricFamily> families;
    exposition::ExtrasByFamily extras;
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
    exposition::ExtrasByFamily extras;
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
  exposition::ExtrasByFamily extras;
  Families out(families, extras, 0, 9'000'000);
  HttpCollector(stats).collect(out);
  const std::string text =
      exposition::serialize(exposition::Format::text_0_0_4, families, extras).body;
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
