// Which containers the incident viewer gives a section, what each holds, and their JSON.
#include "flightrec/viewer/container_sections.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "flightrec/viewer/page.h"

using namespace flightrec::viewer;
using flightrec::container::ContainerFrame;
using flightrec::container::ContainerRow;
using flightrec::container::kUnlimited;

namespace {

constexpr int64_t kStart = 1'764'478'800'000'000'000;
constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kMiB = 1 << 20;

// A container whose counters at frame k are `k` times the given growth per frame.
struct Spec {
  std::string name;
  int64_t usage_us_per_frame = 0;
  int64_t throttled_per_frame = 0;  // throttled periods (of 10 a frame)
  int64_t events_max_per_frame = 0;
  int64_t memory_bytes = 0;
  int first_frame = 0;
  int last_frame = 100;
};

ContainerRow row_of(const Spec& spec, int k) {
  ContainerRow row;
  row.path = "/system.slice/docker-" + spec.name + ".scope";
  row.id = spec.name;
  row.name = spec.name;
  auto& s = row.stats;
  s.cpu.usage_us = spec.usage_us_per_frame * k;
  s.cpu.periods = 10 * k;
  s.cpu.throttled_periods = spec.throttled_per_frame * k;
  s.cpu.throttled_us = spec.throttled_per_frame * k * 50'000;
  s.bandwidth = {.quota_us = spec.throttled_per_frame > 0 ? 20'000 : kUnlimited,
                 .period_us = 100'000};
  s.memory.usage_bytes = spec.memory_bytes;
  s.memory.limit_bytes = spec.throttled_per_frame > 0 ? 512 * kMiB : kUnlimited;
  s.memory.high_bytes = kUnlimited;
  s.memory.events = {
      .low = 0, .high = 0, .max = spec.events_max_per_frame * k, .oom = 0, .oom_kill = 0};
  return row;
}

std::vector<ContainerFrame> frames_of(const std::vector<Spec>& specs, int count) {
  std::vector<ContainerFrame> frames;
  for (int k = 0; k < count; ++k) {
    ContainerFrame frame;
    frame.time_unix_ns = kStart + k * kSecond;
    for (const Spec& spec : specs) {
      if (k >= spec.first_frame && k <= spec.last_frame)
        frame.containers.push_back(row_of(spec, k));
    }
    std::sort(frame.containers.begin(), frame.containers.end(),
              [](const ContainerRow& a, const ContainerRow& b) { return a.path < b.path; });
    frames.push_back(std::move(frame));
  }
  return frames;
}

std::vector<std::string> names(const std::vector<ContainerSection>& sections) {
  std::vector<std::string> out;
  for (const auto& s : sections) out.push_back(s.name);
  return out;
}

}  // namespace

TEST_CASE("theThrottledTheOnesWithMemoryEventsAndTheBusiestGetSections", "[viewer][containers]") {
  const std::vector<Spec> specs{
      {.name = "idle1", .memory_bytes = 1 * kMiB},
      {.name = "busy1", .usage_us_per_frame = 300'000, .memory_bytes = 100 * kMiB},
      {.name = "events",
       .usage_us_per_frame = 1'000,
       .events_max_per_frame = 2,
       .memory_bytes = 2 * kMiB},
      {.name = "idle2", .memory_bytes = 1 * kMiB},
      {.name = "busy2", .usage_us_per_frame = 200'000, .memory_bytes = 90 * kMiB},
      {.name = "throttled",
       .usage_us_per_frame = 200'000,
       .throttled_per_frame = 8,
       .memory_bytes = 3 * kMiB},
      {.name = "busy3", .usage_us_per_frame = 100'000, .memory_bytes = 80 * kMiB},
      {.name = "idle3", .memory_bytes = 1 * kMiB},
  };
  const auto sections = container_sections(frames_of(specs, 5));
  // busy3 is third by CPU after busy1 and (tied with busy2) the throttled one, but the third
  // biggest by memory.
  CHECK(names(sections) ==
        std::vector<std::string>{"throttled", "events", "busy1", "busy2", "busy3"});
  const ContainerSection& throttled = sections[0];
  CHECK(throttled.reasons.front() == "throttled");
  CHECK(throttled.throttled_periods == 32);
  CHECK(throttled.periods == 40);
  CHECK(*throttled.quota_cores == 0.2);
  CHECK(throttled.period_ns == 100'000'000);
  CHECK(*throttled.memory_limit_bytes == 512.0 * kMiB);
  CHECK(throttled.times_ns.size() == 5);
  CHECK_FALSE(throttled.cpu_cores.front().has_value());  // nothing before the first frame
  CHECK(*throttled.cpu_cores.back() == 0.2);
  // No episodes in these frames: the strip comes from the frames' cpu.stat reads, a second apart.
  CHECK(throttled.strip.source == flightrec::container::StripSource::cpu_stat);
  CHECK(throttled.strip.cells.size() == 4);
  CHECK(throttled.strip.cells.back().periods == 10);
  CHECK(sections[1].reasons == std::vector<std::string>{"memory events"});
  CHECK(sections[1].events_max == 8);
  CHECK(sections[2].reasons == std::vector<std::string>{"top CPU", "top memory"});
  CHECK_FALSE(sections[2].quota_cores.has_value());
  CHECK(sections[2].strip.cells.empty());  // no quota: no strip
}

TEST_CASE("everyContainerOfAFewGetsASection", "[viewer][containers]") {
  // "gone" leaves after the second frame, "new" comes with the third: each is one container.
  const auto sections = container_sections(
      frames_of({{.name = "gone", .last_frame = 1}, {.name = "new", .first_frame = 2}}, 4));
  REQUIRE(sections.size() == 2);
  for (const auto& section : sections) {
    CHECK(section.reasons == std::vector<std::string>{"few containers"});
    CHECK(section.times_ns.size() == 2);
  }
  // The window leaves out frames outside it.
  const auto window = container_sections(
      frames_of({{.name = "gone", .last_frame = 1}, {.name = "new", .first_frame = 2}}, 4),
      {.from_real_ns = kStart + 2 * kSecond, .to_real_ns = kStart + 3 * kSecond});
  CHECK(names(window) == std::vector<std::string>{"new"});
  CHECK(container_sections({}).empty());
}

TEST_CASE("theSectionsAreInThePagesDataEscaped", "[viewer][containers]") {
  ViewOptions options;
  options.containers = container_sections(frames_of(
      {{.name = "</script><b>", .usage_us_per_frame = 200'000, .throttled_per_frame = 8}}, 3));
  const std::string json = view_json({}, {}, {}, options);
  CHECK(json.find("\"containers\":[") != std::string::npos);
  CHECK(json.find("\"name\":\"\\u003c/script\\u003e\\u003cb\\u003e\"") != std::string::npos);
  CHECK(json.find("\"reasons\":[\"throttled\",\"top CPU\"]") != std::string::npos);
  CHECK(json.find("\"quota_cores\":0.2,\"period_seconds\":0.1,\"memory_limit\":536870912") !=
        std::string::npos);
  CHECK(json.find("\"strip\":{\"source\":\"cpu.stat\",\"period_seconds\":0.1,\"t\":[1764478800,"
                  "1764478801],\"throttled_ms\":[40,40],\"throttled\":[1,1]}") !=
        std::string::npos);
  CHECK(json.find("</script>") == std::string::npos);
  // A page without container frames has an empty list.
  CHECK(view_json({}, {}, {}, {}).find("\"containers\":[]") != std::string::npos);
}
