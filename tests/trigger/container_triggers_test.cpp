// Container rules on the container tier's rounds: `for` counts the time between the reads that
// saw the condition, holding time and cooldown are per container, labels select containers, a
// slow signal is compared at slow rounds only, a reload keeps an unchanged rule's state, and the
// incident names the container.
#include "flightrec/trigger/container_triggers.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "container_fixture.h"
#include "flightrec/config/trigger_rules.h"

using namespace flightrec;
using flightrec::testing::container_info;
using flightrec::testing::Round;
using namespace std::chrono_literals;

namespace {

constexpr int64_t kMs = 1'000'000;

config::TriggerRule rule(std::string name, std::string signal, double value,
                         std::chrono::milliseconds hold = 0ms,
                         std::chrono::milliseconds cooldown = 60'000ms) {
  config::TriggerRule r;
  r.name = std::move(name);
  r.signal = std::move(signal);
  r.selector = *config::parse_signal_selector(r.signal);
  r.op = config::Comparison::greater;
  r.value = value;
  r.hold = hold;
  r.post = 1s;
  r.cooldown = cooldown;
  return r;
}

// Memory usage of `used` bytes against a limit of 1000.
container::CgroupStats memory(int64_t used) {
  container::CgroupStats stats;
  stats.memory.usage_bytes = used;
  stats.memory.limit_bytes = 1000;
  return stats;
}

std::vector<model::IncidentCapture> taken(trigger::ContainerTriggers& triggers) {
  std::vector<model::IncidentCapture> out;
  if (triggers.waiting()) triggers.take(out);
  return out;
}

std::string detail(const model::IncidentDescription& incident, std::string_view key) {
  for (const auto& [name, value] : incident.details) {
    if (name == key) return value;
  }
  return "(none)";
}

const auto kWeb = container_info("/kubepods/pod1/aaa", "aaa", "prod", "web-1", "nginx");
const auto kDb = container_info("/kubepods/pod2/bbb", "bbb", "prod", "db-0", "postgres");
const auto kDev = container_info("/kubepods/pod3/ccc", "ccc", "dev", "web-2", "nginx");

}  // namespace

TEST_CASE("A container rule fires once the condition held `for` between reads",
          "[container_rules]") {
  trigger::ContainerTriggers triggers({rule("full", "container_memory_fill", 0.9, 300ms)}, 10min);
  triggers.observe(Round(0, true, {{kWeb, memory(950)}}).round);  // first read: since now
  triggers.observe(Round(100 * kMs, false, {{kWeb, memory(950)}}).round);
  triggers.observe(Round(200 * kMs, false, {{kWeb, memory(950)}}).round);
  CHECK(taken(triggers).empty());  // held 200 ms
  triggers.observe(Round(300 * kMs, false, {{kWeb, memory(950)}}).round);
  const auto fired = taken(triggers);
  REQUIRE(fired.size() == 1);
  const model::IncidentDescription& incident = fired[0].description;
  CHECK(incident.kind == model::IncidentKind::container);
  CHECK(incident.rule == "full");
  CHECK(incident.condition == "container_memory_fill > 0.9");
  CHECK(incident.series ==
        "container_memory_fill{id=\"/kubepods/pod1/aaa\",namespace=\"prod\",pod=\"web-1\","
        "container=\"nginx\"}");
  CHECK(incident.value == Approx(0.95));
  CHECK(detail(incident, "container.id") == "aaa");
  CHECK(detail(incident, "container.cgroup") == "/kubepods/pod1/aaa");
  CHECK(detail(incident, "container.namespace") == "prod");
  CHECK(detail(incident, "container.pod") == "web-1");
  CHECK(detail(incident, "container.container") == "nginx");
  CHECK(detail(incident, "container.image") == "(none)");
  CHECK(incident.window_to_ns - incident.fired_at_ns == 1'000'000'000);
  CHECK(incident.fired_at_ns - incident.window_from_ns == std::chrono::nanoseconds(10min).count());
  CHECK(triggers.fired() == 1);
}

TEST_CASE("A break in the condition restarts `for`", "[container_rules]") {
  trigger::ContainerTriggers triggers({rule("full", "container_memory_fill", 0.9, 200ms)}, 1min);
  triggers.observe(Round(0, true, {{kWeb, memory(950)}}).round);
  triggers.observe(Round(100 * kMs, false, {{kWeb, memory(950)}}).round);
  triggers.observe(Round(150 * kMs, false, {{kWeb, memory(100)}}).round);
  triggers.observe(Round(200 * kMs, false, {{kWeb, memory(950)}}).round);  // since 150
  triggers.observe(Round(300 * kMs, false, {{kWeb, memory(950)}}).round);
  CHECK(taken(triggers).empty());
  triggers.observe(Round(350 * kMs, false, {{kWeb, memory(950)}}).round);
  CHECK(taken(triggers).size() == 1);
}

TEST_CASE("Cooldown is per container: one firing does not silence the rule for another",
          "[container_rules]") {
  trigger::ContainerTriggers triggers({rule("full", "container_memory_fill", 0.9, 0ms, 10'000ms)},
                                      1min);
  triggers.observe(Round(0, true, {{kWeb, memory(950)}, {kDb, memory(100)}}).round);
  CHECK(taken(triggers).size() == 1);
  triggers.observe(Round(100 * kMs, false, {{kWeb, memory(950)}, {kDb, memory(990)}}).round);
  const auto second = taken(triggers);
  REQUIRE(second.size() == 1);
  CHECK(detail(second[0].description, "container.pod") == "db-0");
  // Both in their cooldown; web fires again once its own has passed.
  triggers.observe(Round(5000 * kMs, true, {{kWeb, memory(950)}, {kDb, memory(990)}}).round);
  CHECK(taken(triggers).empty());
  triggers.observe(Round(10'000 * kMs, true, {{kWeb, memory(950)}, {kDb, memory(990)}}).round);
  const auto again = taken(triggers);
  REQUIRE(again.size() == 1);
  CHECK(detail(again[0].description, "container.pod") == "web-1");
}

TEST_CASE("Label matchers select the containers a rule watches", "[container_rules]") {
  trigger::ContainerTriggers triggers(
      {rule("prod-nginx", "container_memory_fill{namespace=\"prod\",container=\"nginx\"}", 0.9),
       rule("nowhere", "container_memory_fill{pod=\"checkout-7f9c\"}", 0.9)},
      1min);
  triggers.observe(
      Round(0, true, {{kWeb, memory(950)}, {kDb, memory(950)}, {kDev, memory(950)}}).round);
  const auto fired = taken(triggers);
  REQUIRE(fired.size() == 1);
  CHECK(fired[0].description.rule == "prod-nginx");
  CHECK(detail(fired[0].description, "container.pod") == "web-1");
}

TEST_CASE("Regex and negative matchers select as Prometheus's do", "[container_rules]") {
  const auto pods_fired = [](const std::string& signal) {
    trigger::ContainerTriggers triggers({rule("r", signal, 0.9)}, 1min);
    triggers.observe(
        Round(0, true, {{kWeb, memory(950)}, {kDb, memory(950)}, {kDev, memory(950)}}).round);
    std::vector<std::string> pods;
    for (const auto& capture : taken(triggers)) {
      pods.push_back(detail(capture.description, "container.pod"));
    }
    std::sort(pods.begin(), pods.end());
    return pods;
  };
  using Pods = std::vector<std::string>;
  CHECK(pods_fired("container_memory_fill{pod=~\"web-[0-9]+\"}") == Pods{"web-1", "web-2"});
  CHECK(pods_fired("container_memory_fill{pod=~\"web\"}").empty());  // the whole value
  CHECK(pods_fired("container_memory_fill{pod!~\"web-.*\"}") == Pods{"db-0"});
  CHECK(pods_fired("container_memory_fill{namespace!=\"dev\"}") == Pods{"db-0", "web-1"});
  CHECK(pods_fired("container_memory_fill{namespace=\"prod\",container=~\"nginx|postgres\"}") ==
        Pods{"db-0", "web-1"});
  // No container has an image here: "" is what the regex sees.
  CHECK(pods_fired("container_memory_fill{image=~\".+\"}").empty());
  CHECK(pods_fired("container_memory_fill{image!~\".+\"}").size() == 3);
}

TEST_CASE("A slow signal is compared at slow rounds only", "[container_rules]") {
  trigger::ContainerTriggers triggers(
      {rule("limit", "container_memory_events_max_increase", 0, 0ms, 0ms)}, 1min);
  container::CgroupStats stats;
  stats.memory.events.max = 1;
  triggers.observe(Round(0, true, {{kWeb, stats}}).round);
  stats.memory.events.max = 3;
  triggers.observe(Round(1000 * kMs, true, {{kWeb, stats}}).round);
  CHECK(taken(triggers).size() == 1);
  // The fast tier's reads leave memory.events as the slow round read them: nothing new.
  triggers.observe(Round(1010 * kMs, false, {{kWeb, stats}}).round);
  triggers.observe(Round(1020 * kMs, false, {{kWeb, stats}}).round);
  CHECK(taken(triggers).empty());
  triggers.observe(Round(2000 * kMs, true, {{kWeb, stats}}).round);  // no increase
  CHECK(taken(triggers).empty());
}

TEST_CASE(
    "A reload keeps an unchanged rule's cooldown per container, and a gone container "
    "is forgotten",
    "[container_rules]") {
  const auto full = rule("full", "container_memory_fill", 0.9, 0ms, 10'000ms);
  trigger::ContainerTriggers triggers({full}, 1min);
  triggers.observe(Round(0, true, {{kWeb, memory(950)}}).round);
  CHECK(taken(triggers).size() == 1);
  triggers.replace_rules({rule("other", "container_memory_usage_bytes", 5000), full});
  triggers.observe(Round(100 * kMs, true, {{kWeb, memory(950)}}).round);
  CHECK(taken(triggers).empty());  // still in its cooldown
  // The container leaves a slow round and comes back: a new container, no cooldown.
  triggers.observe(Round(200 * kMs, true, {}).round);
  triggers.observe(Round(300 * kMs, true, {{kWeb, memory(950)}}).round);
  CHECK(taken(triggers).size() == 1);
}

TEST_CASE("Firings beyond the queue's bound are dropped and counted", "[container_rules]") {
  trigger::ContainerTriggers triggers({rule("full", "container_memory_fill", 0.9, 0ms, 0ms)}, 1min);
  for (size_t i = 0; i < trigger::ContainerTriggers::kMaxWaiting + 3; ++i) {
    triggers.observe(Round(static_cast<int64_t>(i) * kMs, false, {{kWeb, memory(950)}}).round);
  }
  CHECK(taken(triggers).size() == trigger::ContainerTriggers::kMaxWaiting);
  CHECK(triggers.dropped() == 3);
}

TEST_CASE("container_rules picks the rules over container signals", "[container_rules]") {
  const auto rules = trigger::container_rules(
      {rule("cpu", "cpu_busy_ratio", 0.9), rule("full", "container_memory_fill", 0.9)});
  REQUIRE(rules.size() == 1);
  CHECK(rules[0].name == "full");
}
