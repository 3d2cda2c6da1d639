// Incidents carry the container tier's frames of their window: the file sink takes them from the
// container ring when it writes, and a rewrite (an alert's end) appends the ones that came after.
#include "container_frames.h"

#include <catch2/catch.hpp>

#include "flightrec/container/frame/container_frame_codec.h"
#include "flightrec/incidents/incident_file_sink.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/store/container_ring.h"
#include "incident_fixture.h"

using namespace flightrec;
using namespace flightrec::incidents;
using namespace incident_test;

namespace {

constexpr int64_t kMs = 1'000'000;

// A ring of frames 100 ms apart from kT0, the second container there in frames 1 and 2 only.
void fill(store::ContainerRing& ring, size_t count) {
  for (const auto& frame : test::sample_container_frames(kT0, count)) REQUIRE(ring.push(frame));
}

ContainerFramesSource source_of(const store::ContainerRing& ring) {
  return [&ring](int64_t from_ns, int64_t to_ns) { return ring.frames_between(from_ns, to_ns); };
}

}  // namespace

TEST_CASE("An incident holds the container frames of its window", "[incidents][containers]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  store::ContainerRing ring({});
  fill(ring, 6);
  IncidentFileSink sink(
      store, [] { return make_metadata(); }, {}, source_of(ring));
  const model::IncidentDescription incident{.rule = "container_throttled",
                                            .fired_at_ns = kT0 + 150 * kMs,
                                            .window_from_ns = kT0 + 50 * kMs,
                                            .window_to_ns = kT0 + 350 * kMs};
  CHECK(sink.write({.description = incident}, store::Snapshot{}) == model::WriteOutcome::written);
  const auto read = recording::read_recording(*store.file_of(store.list()[0].id));
  REQUIRE(read.ok());
  const auto expected = test::sample_container_frames(kT0, 4);
  REQUIRE(read->container_frames.size() == 3);  // 100, 200 and 300 ms
  CHECK(read->container_frames[0] == expected[1]);
  CHECK(read->container_frames[1] == expected[2]);
  CHECK(read->container_frames[2] == expected[3]);
  // The container that came and went: in the first two frames of the file only.
  CHECK(read->container_frames[0].containers.size() == 2);
  CHECK(read->container_frames[2].containers.size() == 1);
}

TEST_CASE("A rewrite appends the container frames after the stored ones",
          "[incidents][containers]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  store::ContainerRing ring({});
  fill(ring, 3);
  const auto stored = ring.frames();
  const std::vector<std::shared_ptr<const store::Block>> blocks{make_block(100, 0)};
  const IncidentEntry written =
      store.write(make_info("alert", 50), make_metadata(), blocks, {}, stored);
  REQUIRE(written.status == IncidentStatus::written);
  for (const auto& frame : test::sample_container_frames(kT0 + 300 * kMs, 3)) {
    REQUIRE(ring.push(frame));
  }
  const auto all = ring.frames();  // 0 .. 500 ms
  const StoredRewrite done = store.rewrite(written.id, {.incident = written.incident,
                                                        .blocks = {},
                                                        .container_frames = all,
                                                        .append_until_ns = kT0 + 450 * kMs});
  INFO((done.result ? "" : done.result.error()));
  REQUIRE(done.result.ok());
  CHECK(done.result->appended_container_frames == 2);  // 300 and 400 ms
  const auto read = recording::read_recording(*store.file_of(written.id));
  REQUIRE(read.ok());
  REQUIRE(read->container_frames.size() == 5);
  for (size_t i = 0; i < 5; ++i) {
    CHECK(read->container_frames[i].time_unix_ns == kT0 + static_cast<int64_t>(i) * 100 * kMs);
  }
}
