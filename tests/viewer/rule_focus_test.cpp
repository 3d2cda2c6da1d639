#include "flightrec/viewer/rule_focus.h"

#include <catch2/catch.hpp>

namespace flightrec::viewer {
namespace {

RuleFocus focus_of(std::string condition, model::IncidentKind kind = model::IncidentKind::rule) {
  return rule_focus({.kind = kind, .condition = std::move(condition)});
}

TEST_CASE("shouldSortByMemoryForAMemoryRuleAndDrawItsThresholdOnTheMemoryChart",
          "[viewer][rule_focus]") {
  const auto memory = focus_of("memory_used_bytes >= 2147483648");
  CHECK(memory.sort == ProcessSort::rss);
  REQUIRE(memory.threshold);
  CHECK(memory.threshold->chart == "memory");
  CHECK(memory.threshold->value == 2147483648.0);
  CHECK(memory.threshold->label == "memory_used_bytes >= 2147483648");
  // Memory pressure is about memory too, drawn on the pressure chart.
  const auto pressure = focus_of("pressure_stall_ratio{resource=\"memory\",kind=\"some\"} > 0.1");
  CHECK(pressure.sort == ProcessSort::rss);
  REQUIRE(pressure.threshold);
  CHECK(pressure.threshold->chart == "pressure");
  CHECK(pressure.threshold->value == 0.1);
  // Not charted: no line, but still memory.
  const auto ratio = focus_of("memory_used_ratio > 0.9");
  CHECK(ratio.sort == ProcessSort::rss);
  CHECK_FALSE(ratio.threshold);
  CHECK(focus_of("container_memory_used_bytes > 1e9", model::IncidentKind::container).sort ==
        ProcessSort::rss);
}

TEST_CASE("shouldSortByCpuOtherwise", "[viewer][rule_focus]") {
  const auto cpu = focus_of("cpu_busy_ratio{cpu=\"total\"} < 1e-07");
  CHECK(cpu.sort == ProcessSort::cpu);
  REQUIRE(cpu.threshold);
  CHECK(cpu.threshold->chart == "cpu");
  CHECK(cpu.threshold->value == 1e-07);
  // A label value holding spaces and an operator-looking word.
  const auto disk = focus_of("disk_read_bytes_per_second{device=\"my disk > 2\"} > 1048576");
  CHECK(disk.sort == ProcessSort::cpu);
  REQUIRE(disk.threshold);
  CHECK(disk.threshold->chart == "disk");
  CHECK(disk.threshold->value == 1048576.0);
  CHECK(focus_of("network_transmit_bytes_per_second > 5").threshold->chart == "network");
}

TEST_CASE("shouldDrawNoThresholdForConditionsWithoutASignal", "[viewer][rule_focus]") {
  for (const char* text :
       {"", "alertmanager alert", "grafana alert", "x > ", "x ~ 1", "x > 1x", "> 1", " > 1"}) {
    const auto focus = focus_of(text);
    CHECK(focus.sort == ProcessSort::cpu);
    CHECK_FALSE(focus.threshold);
  }
  // An OOM kill is about memory; its signal is not charted.
  const auto oom = focus_of("oom_kills_per_second > 0", model::IncidentKind::oom_kill);
  CHECK(oom.sort == ProcessSort::rss);
  CHECK_FALSE(oom.threshold);
}

}  // namespace
}  // namespace flightrec::viewer
