#include "flightrec/incidents/incident_file_sink.h"

#include <catch2/catch.hpp>

#include "flightrec/recording/recording_file.h"
#include "incident_fixture.h"

using namespace flightrec;
using namespace flightrec::incidents;
using namespace incident_test;

TEST_CASE("Blocks in a window are those with any frame inside it", "[incidents]") {
  const std::vector<std::shared_ptr<const store::Block>> blocks{
      make_block(100, 0), make_block(100, 100), make_block(100, 200)};
  const int64_t ms = 1'000'000;
  CHECK(blocks_in_window(blocks, kT0 + 150 * ms, kT0 + 160 * ms) ==
        std::vector<std::shared_ptr<const store::Block>>{blocks[1]});
  CHECK(blocks_in_window(blocks, kT0 + 99 * ms, kT0 + 200 * ms) == blocks);
  CHECK(blocks_in_window(blocks, kT0 + 300 * ms, kT0 + 400 * ms).empty());
}

TEST_CASE("The incident file sink writes the capture's fields and window", "[incidents]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  IncidentFileSink sink(store, [] { return make_metadata(); });
  const trigger::IncidentCapture capture{.rule = "cpu_busy",
                                         .series = "cpu_busy_ratio{cpu=\"3\"}",
                                         .value = 0.97,
                                         .fired_at_real_ns = kT0 + 2'000'000'000,
                                         .from_real_ns = kT0,
                                         .to_real_ns = kT0 + 3'000'000'000};
  // An empty snapshot: the file holds metadata only, and is still a valid recording.
  sink.write(capture, store::Snapshot{});
  const auto entries = store.list();
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].status == IncidentStatus::written);
  CHECK(entries[0].info.series == capture.series);
  CHECK(entries[0].info.window_to_ns == capture.to_real_ns);
  const auto read = recording::read_recording(*store.file_of(entries[0].id));
  CHECK(read.ok());
}
