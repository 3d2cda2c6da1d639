// A container's period strip over container frames, and its display name. Replay's and the
// viewer's tests cover them on fuller recordings (tests/replay/containers_test.cpp).
#include "flightrec/container/frame/frame_strip.h"

#include <catch2/catch.hpp>

#include "flightrec/container/frame/display_name.h"

using namespace flightrec::container;

namespace {

constexpr int64_t kStart = 1'764'478'800'000'000'000;
constexpr int64_t kPeriod = 100'000'000;

// Frames 100 ms apart (one period each) of one group with a 20 ms quota, throttled for 60 ms in
// the periods listed.
std::vector<ContainerFrame> frames(const std::vector<bool>& throttled, bool episodes) {
  std::vector<ContainerFrame> out;
  int64_t count = 0;
  for (size_t k = 0; k <= throttled.size(); ++k) {
    ContainerFrame frame;
    frame.time_unix_ns = kStart + static_cast<int64_t>(k) * kPeriod;
    frame.mono_ns = frame.time_unix_ns - kStart;  // the monotonic clock starts with the window
    frame.episodes_recorded = episodes;
    if (k > 0 && throttled[k - 1]) {
      ++count;
      if (episodes) {
        const int64_t period_start = static_cast<int64_t>(k - 1) * kPeriod;
        frame.episodes.push_back({.cgroup_id = 9,
                                  .start_ns = period_start + 40'000'000,
                                  .end_ns = period_start + kPeriod,
                                  .period_ns = kPeriod,
                                  .period_end_ns = period_start + kPeriod,
                                  .throttled_ns = 60'000'000,
                                  .refills = 1});
      }
    }
    ContainerRow row;
    row.path = "/a";
    row.id = "a";
    row.cgroup_id = 9;
    row.stats.cpu.periods = static_cast<int64_t>(k);
    row.stats.cpu.throttled_periods = count;
    row.stats.cpu.throttled_us = count * 60'000;
    row.stats.bandwidth = {.quota_us = 20'000, .period_us = 100'000};
    frame.containers = {row};
    out.push_back(frame);
  }
  return out;
}

}  // namespace

TEST_CASE("theStripOfAGroupFromItsEpisodesAndFromItsCpuStat", "[container][strip]") {
  const std::vector<bool> throttled{false, true, true, false, true};
  // Episodes: the last period's is left out (the frame after it would report it).
  const auto from_episodes = frames(throttled, true);
  auto strip = container_strip(from_episodes, "/a", from_episodes.back().time_unix_ns, 10);
  CHECK(strip.source == StripSource::episodes);
  CHECK(strip_text(strip) == ".66.");
  CHECK(strip.cells[1].start_ns == kStart + kPeriod);
  CHECK(strip.cells[1].throttled_ns == 60'000'000);
  // cpu.stat: one cell per pair of frames, the last period included.
  const auto from_reads = frames(throttled, false);
  strip = container_strip(from_reads, "/a", from_reads.back().time_unix_ns, 10);
  CHECK(strip.source == StripSource::cpu_stat);
  CHECK(strip_text(strip) == ".66.6");
  CHECK(strip_summary(strip) == "3 of 5 reads (5 periods) throttled, 60ms at most in one");
  // At most the cells asked for, the newest.
  CHECK(strip_text(container_strip(from_reads, "/a", from_reads.back().time_unix_ns, 2)) == ".6");
  // Another path, or a group without a quota: nothing.
  CHECK(container_strip(from_reads, "/b", from_reads.back().time_unix_ns, 10).cells.empty());
  auto unlimited = from_reads;
  for (auto& frame : unlimited) frame.containers[0].stats.bandwidth.quota_us = kUnlimited;
  CHECK(container_strip(unlimited, "/a", unlimited.back().time_unix_ns, 10).source ==
        StripSource::none);
  CHECK(container_strip({}, "/a", kStart, 10).cells.empty());
}

TEST_CASE("aContainerIsNamedByItsPodByItsNameElseByItsId", "[container][names]") {
  ContainerRow row;
  row.id = std::string(64, 'a');
  CHECK(display_name(row) == "aaaaaaaaaaaa");
  row.id = "nginx.service";
  CHECK(display_name(row) == "nginx.service");
  row.name = "web";
  CHECK(display_name(row) == "web");
  row.pod_namespace = "prod";
  row.pod = "checkout-7f9c";
  CHECK(display_name(row) == "prod/checkout-7f9c");
  row.container = "app";
  CHECK(display_name(row) == "prod/checkout-7f9c/app");
}
