// The daemon's /metrics composition: every component's collector, in Daemon::add_collectors's
// order, exposing each family once.
#include "flightrec/exporter/metrics/collectors.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "collector_world.h"
#include "fake_proc_tree.h"
#include "family_names.h"
#include "flightrec/exposition/collectable.h"
#include "flightrec/exposition/serialize.h"
#include "flightrec/incidents/incident_store.h"
#include "flightrec/incidents/incidents_collector.h"
#include "flightrec/model/incident_handoff.h"
#include "flightrec/trigger/alert_receiver.h"
#include "flightrec/trigger/collectors.h"
#include "flightrec/trigger/manual_gate.h"
#include "flightrec/trigger/writer.h"
#include "temp_dir.h"

using namespace flightrec;
using namespace flightrec::exporter::metrics;
using testing::family_names;
using namespace std::chrono_literals;

namespace {

class DiscardingSink final : public model::IncidentSink {
 public:
  model::WriteOutcome write(const model::IncidentCapture&, store::Snapshot) override {
    return model::WriteOutcome::written;
  }
};

// The container tier over a cgroup tree, read once.
std::unique_ptr<recorder::ContainerRecorder> container_tier_of(const testing::FakeProcTree& tree) {
  sampler::ProcRoot root;
  root.cgroupfs = tree.root();
  auto tier = recorder::ContainerRecorder::open({}, root);
  REQUIRE(tier.ok());
  (*tier)->tick(0);
  return std::move(*tier);
}

// Every component /metrics reads, as the daemon composes them.
struct DaemonCollectors {
  testing::CollectorWorld machine;
  testing::TempDir dir{"flightrec-collectors"};
  incidents::IncidentStore incident_store{{.dir = dir.path()}};
  DiscardingSink sink;
  trigger::IncidentWriter incident_writer{sink};
  trigger::ManualTriggerGate manual_gate{std::chrono::seconds(5), std::chrono::seconds(60)};
  trigger::AlertReceiver alert_receiver{{}};
  testing::FakeProcTree cgroups = testing::FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  std::unique_ptr<recorder::ContainerRecorder> container_tier = container_tier_of(cgroups);

  // The daemon's collectors, in the daemon's order (app/src/daemon.cpp).
  ScrapeCollector& add_all(exposition::Collectables& collectables) {
    collectables.emplace<SystemCollector>(machine.schema, machine.recorder);
    collectables.emplace<ProcessRankingsCollector>(machine.processes);
    collectables.emplace<ContainerCollector>(*container_tier, 20);
    collectables.emplace<InstanceCollector>(InstanceCollector::Settings{
        .start_real_ns = 1, .sampler_rate = 1ms, .export_window = [] { return 15s; }});
    collectables.emplace<SamplerCollector>(machine.sampler.stats());
    collectables.emplace<RecorderCollector>(machine.recorder, machine.ring);
    collectables.emplace<incidents::IncidentsCollector>(incident_store);
    collectables.emplace<trigger::CaptureCollector>(incident_writer, manual_gate);
    collectables.emplace<trigger::AlertsCollector>(alert_receiver);
    collectables.emplace<ProcessTierCollector>(machine.process_stats, machine.process_ring);
    collectables.emplace<SelfCostCollector>(machine.self_cost());
    collectables.emplace<HttpCollector>(machine.http_stats);
    return collectables.emplace<ScrapeCollector>();
  }
};

}  // namespace

TEST_CASE("shouldNeverExposeOneFamilyFromTwoCollectors", "[app][collectors]") {
  DaemonCollectors w;
  exposition::Collectables collectables(1);
  w.add_all(collectables);
  std::vector<prometheus::MetricFamily> families;
  exposition::ExtrasByFamily extras;
  const auto names = family_names(collectables, families, extras);
  CHECK(std::set<std::string>(names.begin(), names.end()).size() == names.size());
  // Nor anything the serializer would have to leave out (units, created times).
  CHECK(exposition::serialize(exposition::Format::openmetrics_1_0_0, families, extras)
            .warnings.empty());
}

TEST_CASE("shouldCollectInRegistrationOrderTheSameWayEveryScrape", "[app][collectors]") {
  DaemonCollectors w;
  exposition::Collectables collectables(1);
  auto& scrapes = w.add_all(collectables);
  std::vector<prometheus::MetricFamily> first_families;
  exposition::ExtrasByFamily first_extras;
  const auto first = family_names(collectables, first_families, first_extras);
  scrapes.record(exposition::Format::openmetrics_1_0_0, 1'000'000, 500'000);
  std::vector<prometheus::MetricFamily> second_families;
  exposition::ExtrasByFamily second_extras;
  CHECK(family_names(collectables, second_families, second_extras) == first);
  CHECK(first.front() == "flightrec_memory_total_bytes");  // the machine first
  CHECK(first.back() == "flightrec_scrapes_total");        // the scrape itself last
  // What the scrape recorded shows in the next one.
  const auto& scrape_counts = second_families.back();
  REQUIRE(scrape_counts.metric.size() == 2);
  CHECK(scrape_counts.metric[1].label[0].value == "openmetrics-1.0.0");
  CHECK(scrape_counts.metric[1].counter.value == 1);
}
