#include "flightrec/incidents/incident_file_sink.h"

#include <catch2/catch.hpp>

#include "flightrec/common/json_writer.h"
#include "flightrec/incidents/handlers.h"
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
  const model::IncidentDescription incident{.rule = "cpu_busy",
                                            .value = 0.97,
                                            .series = "cpu_busy_ratio{cpu=\"3\"}",
                                            .fired_at_ns = kT0 + 2'000'000'000,
                                            .window_from_ns = kT0,
                                            .window_to_ns = kT0 + 3'000'000'000};
  // An empty snapshot: the file holds metadata only, and is still a valid recording.
  CHECK(sink.write({.description = incident}, store::Snapshot{}) == model::WriteOutcome::written);
  const auto entries = store.list();
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].status == IncidentStatus::written);
  CHECK(entries[0].incident == incident);
  const auto read = recording::read_recording(*store.file_of(entries[0].id));
  CHECK(read.ok());
}

TEST_CASE("A manual incident keeps its reason and a rule's its condition, on disk and in the index",
          "[incidents]") {
  TempDir dir;
  StderrCapture log;
  const std::string reason = "during the deploy of v2.3 (\"canary\" & <rollback?>)";
  const std::string condition = "cpu_busy_ratio{cpu=\"total\"} > 0.8";
  {
    IncidentStore store({.dir = dir.path()});
    IncidentFileSink sink(store, [] { return make_metadata(); });
    sink.write({.description = {.rule = "manual",
                                .reason = reason,
                                .fired_at_ns = kT0 + 1'000'000'000,
                                .window_from_ns = kT0,
                                .window_to_ns = kT0 + 2'000'000'000}},
               store::Snapshot{});
    sink.write({.description = {.rule = "cpu_busy",
                                .condition = condition,
                                .value = 0.93,
                                .series = "cpu_busy_ratio{cpu=\"total\"}",
                                .fired_at_ns = kT0 + 3'000'000'000,
                                .window_from_ns = kT0,
                                .window_to_ns = kT0 + 4'000'000'000}},
               store::Snapshot{});
  }
  // Read back by a fresh store's start-up scan: what a restarted daemon lists.
  IncidentStore reopened({.dir = dir.path()});
  const std::string json = incidents_json(reopened.list());
  std::string quoted_reason;
  append_json_string(quoted_reason, reason);
  std::string quoted_condition;
  append_json_string(quoted_condition, condition);
  CHECK_THAT(json, Catch::Matchers::Contains("\"reason\":" + quoted_reason));
  CHECK_THAT(json, Catch::Matchers::Contains("\"condition\":" + quoted_condition));
}

TEST_CASE("The incident file sink tells a failed write, which the store lists as failed",
          "[incidents]") {
  TempDir tmp;
  StderrCapture log;
  const std::filesystem::path dir = tmp.path() / "incidents";
  IncidentStore store({.dir = dir});
  IncidentFileSink sink(store, [] { return make_metadata(); });
  // A regular file in place of the directory: fails for root too, where chmod would not.
  std::filesystem::remove_all(dir);
  write_bytes(dir, "in the way");
  CHECK(sink.write({.description = make_info("cpu", 1000)}, store::Snapshot{}) ==
        model::WriteOutcome::failed);
  const auto entries = store.list();
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].status == IncidentStatus::failed);
  std::filesystem::remove(dir);
  CHECK(sink.write({.description = make_info("cpu", 2000)}, store::Snapshot{}) ==
        model::WriteOutcome::written);
}
