// Rewriting a stored incident (an alert's end): the new description and the appended frames, the
// index following, and nothing lost when the stored file is bad or the rewrite is killed.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

#include "flightrec/incidents/incident_file.h"
#include "flightrec/incidents/incident_rewrite.h"
#include "flightrec/incidents/incident_store.h"
#include "flightrec/recording/recording_file.h"
#include "incident_fixture.h"

using namespace flightrec;
using namespace flightrec::incidents;
using namespace incident_test;
namespace fs = std::filesystem;

namespace {

using BlockList = std::vector<std::shared_ptr<const store::Block>>;

constexpr int64_t kMs = 1'000'000;

size_t files_in(const fs::path& dir) {
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

std::vector<uint64_t> ticks_of(const recording::Recording& recording) {
  std::vector<uint64_t> all;
  std::vector<uint64_t> ticks;
  for (const auto& block : recording.blocks) {
    block->decode_ticks(ticks);
    all.insert(all.end(), ticks.begin(), ticks.end());
  }
  return all;
}

// Writes one incident of the blocks given, with a metadata pair of its own besides incident.*.
IncidentEntry write_with(IncidentStore& store, const BlockList& blocks) {
  recording::Metadata metadata = make_metadata();
  metadata.extra.emplace_back("config.origin", "/etc/flightrec.yaml");
  return store.write(make_info("alert", 50), metadata, blocks);
}

}  // namespace

TEST_CASE("aRewriteReplacesTheDescriptionAppendsTheLaterFramesAndUpdatesTheIndex", "[rewrite]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  const IncidentEntry written = write_with(store, {make_block(100, 0)});  // ticks 0..99
  REQUIRE(written.status == IncidentStatus::written);

  model::IncidentDescription ended = written.incident;
  ended.window_to_ns = kT0 + 400 * kMs;
  ended.details.emplace_back("alert.status", "resolved");
  // The ring as it is later: the stored block again, then more; frames after 249 ms stay out.
  const BlockList ring{make_block(100, 0), make_block(100, 100), make_block(100, 200)};
  const StoredRewrite done = store.rewrite(
      written.id, {.incident = ended, .blocks = ring, .append_until_ns = kT0 + 249 * kMs});
  INFO((done.result ? "" : done.result.error()));
  REQUIRE(done.found);
  REQUIRE(done.result.ok());
  CHECK(done.result->appended_frames == 150);

  const fs::path path = *store.file_of(written.id);
  const auto read = recording::read_recording(path);
  REQUIRE(read.ok());
  const auto ticks = ticks_of(*read);
  REQUIRE(ticks.size() == 250);
  for (size_t i = 0; i < ticks.size(); ++i) CHECK(ticks[i] == i);
  CHECK(model::decode_incident(read->meta) == ended);
  CHECK(read->meta.extra.front() ==
        std::pair<std::string, std::string>{"config.origin", "/etc/flightrec.yaml"});

  // The index, as /incidents and `flightrec incidents` read it, and as a restart rebuilds it.
  const auto entry = store.find(written.id);
  REQUIRE(entry);
  CHECK(entry->incident == ended);
  CHECK(entry->bytes == fs::file_size(path));
  CHECK(entry->bytes > written.bytes);
  CHECK(done.entry.incident == ended);
  IncidentStore reopened({.dir = dir.path()});
  CHECK(reopened.find(written.id)->incident == ended);
  CHECK(files_in(dir.path()) == 1);  // no temporary left
  CHECK(log.count("incident rewritten") == 1);
}

TEST_CASE("aRewriteWithoutFramesToAppendOnlyChangesTheDescription", "[rewrite]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  const IncidentEntry written = write_with(store, {make_block(100, 0)});
  model::IncidentDescription ended = written.incident;
  ended.reason = "ended";
  const BlockList ring{make_block(100, 0), make_block(100, 100)};
  const StoredRewrite done = store.rewrite(written.id, {.incident = ended, .blocks = ring});
  REQUIRE(done.result.ok());
  CHECK(done.result->appended_frames == 0);
  const auto read = recording::read_recording(*store.file_of(written.id));
  REQUIRE(read.ok());
  CHECK(ticks_of(*read).size() == 100);
  CHECK(model::decode_incident(read->meta)->reason == "ended");
}

TEST_CASE("aCorruptOrMissingStoredFileGivesAClearErrorAndLosesNothing", "[rewrite]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  const IncidentEntry written = write_with(store, {make_block(100, 0)});
  const fs::path path = *store.file_of(written.id);
  model::IncidentDescription ended = written.incident;
  ended.reason = "ended";
  const BlockList ring{make_block(100, 100)};
  const IncidentRewrite rewrite{
      .incident = ended, .blocks = ring, .append_until_ns = kT0 + 150 * kMs};

  std::string bytes = read_bytes(path);
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x5a);
  write_bytes(path, bytes);
  StoredRewrite done = store.rewrite(written.id, rewrite);
  CHECK(done.found);
  REQUIRE_FALSE(done.result.ok());
  CHECK_THAT(done.result.error(),
             Catch::Matchers::StartsWith(path.string() + ": cannot be rewritten, left as it "
                                                         "was: "));
  CHECK_THAT(done.result.error(), Catch::Matchers::Contains("CRC"));
  CHECK(read_bytes(path) == bytes);
  CHECK(store.find(written.id)->incident == written.incident);
  CHECK(store.find(written.id)->bytes == written.bytes);
  CHECK(files_in(dir.path()) == 1);
  CHECK(log.count("cannot rewrite an incident file; it stays as it was") == 1);

  fs::remove(path);
  done = store.rewrite(written.id, rewrite);
  REQUIRE_FALSE(done.result.ok());
  CHECK_THAT(done.result.error(), Catch::Matchers::Contains("No such file or directory"));
  CHECK(store.find(written.id)->incident == written.incident);
  CHECK(files_in(dir.path()) == 0);

  CHECK_FALSE(store.rewrite("20251130T050000.000Z-alert", rewrite).found);
}

TEST_CASE("framesOfAnotherDaemonRunAreNotAppended", "[rewrite]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  const IncidentEntry written = write_with(store, {make_block(100, 0)});  // ticks 0..99
  const std::string before = read_bytes(*store.file_of(written.id));
  // A restarted daemon's ring: its ticks start again at 0, its times are later.
  std::vector<sampler::FrameHeader> headers;
  std::vector<int64_t> values;
  for (uint64_t tick = 0; tick < 10; ++tick) {
    const int64_t ns = kT0 + 500 * kMs + static_cast<int64_t>(tick) * kMs;
    headers.push_back({.tick = tick, .mono_ns = ns, .real_ns = ns});
    values.insert(values.end(), {1, 2});
  }
  const BlockList ring{store::Block::encode(headers, values, 2, kRate)};
  const StoredRewrite done = store.rewrite(
      written.id,
      {.incident = written.incident, .blocks = ring, .append_until_ns = kT0 + 600 * kMs});
  REQUIRE_FALSE(done.result.ok());
  CHECK_THAT(done.result.error(), Catch::Matchers::Contains("another daemon run"));
  CHECK(read_bytes(*store.file_of(written.id)) == before);
}

TEST_CASE("aRewriteKilledAtAnyPointLeavesTheOldOrTheNewFileComplete", "[rewrite]") {
  // A file of a few MB, so that a rewrite takes long enough to be killed in every phase.
  TempDir dir;
  StderrCapture log;
  BlockList blocks;
  for (int64_t i = 0; i < 40; ++i) blocks.push_back(make_block(5000, i * 5000));
  const fs::path path = dir.path() / "20251130T050000.050Z-alert.flightrec";
  const model::IncidentDescription original = make_info("alert", 50);
  recording::Metadata metadata = make_metadata();
  model::encode_incident(original, metadata.extra);
  REQUIRE(recording::write_recording_atomically(path, metadata, blocks).ok());

  std::set<std::string> seen;
  for (int round = 0; round < 40; ++round) {
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      // Rewrites for ever, alternating between two descriptions, until killed.
      for (int n = 0;; ++n) {
        model::IncidentDescription next = original;
        next.reason = n % 2 == 0 ? "even" : "odd";
        static_cast<void>(rewrite_incident_file(path, {.incident = next}));
      }
    }
    usleep(static_cast<useconds_t>(1000 + round * 1500));
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    const FileCheck check = check_incident_file(path);
    INFO("round " << round << ": " << check.error);
    REQUIRE(check.ok());
    seen.insert(check.incident.reason);
    CHECK(check.incident.window_to_ns == original.window_to_ns);
    // What a kill leaves besides: at most the temporary, which the start-up scan removes.
    for (const auto& item : fs::directory_iterator(dir.path())) {
      if (item.path() != path) fs::remove(item.path());
    }
  }
  // Every kill found a complete file, the original ("") or a rewritten one, and the rewrites did
  // replace it in some rounds.
  for (const auto& reason : seen) CHECK((reason.empty() || reason == "even" || reason == "odd"));
  CHECK((seen.contains("even") || seen.contains("odd")));
}
