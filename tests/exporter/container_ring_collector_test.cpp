// The container ring's own families: its size, and what its bounds dropped or refused.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "container_frames.h"
#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exposition/collectable.h"

using namespace flightrec;
using namespace flightrec::exporter::metrics;

namespace {

double value_of(const ContainerRingCollector& collector, const std::string& name) {
  std::vector<prometheus::MetricFamily> families;
  exposition::ExtrasByFamily extras;
  exposition::Families out(families, extras, 0, 0);
  collector.collect(out);
  for (const auto& family : families) {
    if (family.name != name || family.metric.size() != 1) continue;
    const auto& metric = family.metric[0];
    return family.type == prometheus::MetricType::Counter ? metric.counter.value
                                                          : metric.gauge.value;
  }
  FAIL("no family " << name);
  return -1;
}

}  // namespace

TEST_CASE("shouldExposeTheContainerRingsSizeAndDrops", "[exporter][containers]") {
  constexpr int64_t kStart = 1'764'000'000'000'000'000;
  store::ContainerRing ring({.duration = std::chrono::milliseconds(200)});
  const ContainerRingCollector collector(ring);
  CHECK(value_of(collector, "flightrec_container_ring_frames") == 0);
  const auto frames = test::sample_container_frames(kStart);  // 100 ms apart
  for (const auto& frame : frames) REQUIRE(ring.push(frame));
  CHECK_FALSE(ring.push(frames[0]));  // back in time
  CHECK(value_of(collector, "flightrec_container_ring_frames") == 3);
  CHECK(value_of(collector, "flightrec_container_ring_dropped_frames_total") == 1);
  CHECK(value_of(collector, "flightrec_container_ring_rejected_frames_total") == 1);
  CHECK(value_of(collector, "flightrec_container_ring_bytes") ==
        static_cast<double>(ring.stats().bytes));
  CHECK(ring.stats().bytes > 0);
}
