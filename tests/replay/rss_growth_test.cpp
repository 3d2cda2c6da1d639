// RGROW: each process's RSS growth over a span ending at the cursor, from the frame at the span's
// start or, for a process born since, from the first frame that holds it; the same whether the
// frames are in memory or still in their blocks; `w` cycles the span and the table follows.
#include "flightrec/replay/rss_growth.h"

#include <catch2/catch.hpp>
#include <map>

#include "flightrec/replay/format.h"
#include "flightrec/replay/model.h"
#include "flightrec/replay/screen.h"
#include "flightrec/replay/session.h"
#include "flightrec/store/process_block.h"
#include "replay_fixture.h"

using namespace flightrec;
using namespace flightrec::replay;
using namespace flightrec::replay::testing;
using process::ProcessFrame;
using process::ProcessRow;

namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kT0 = kStartNs;

ProcessRow process(int32_t pid, int64_t start_ns, int64_t rss_mib) {
  ProcessRow row;
  row.pid = pid;
  row.comm = "p" + std::to_string(pid);
  row.start_time_unix_ns = start_ns;
  row.rss_bytes = static_cast<uint64_t>(rss_mib * kMiB);
  return row;
}

// Frames 5 s apart: pid 10 grows 100, 150, 200, 260 MiB; pid 11 shrinks; pid 20 is born at 7 s
// (first seen at 10 s); pid 12's number is reused at 12 s by another process; pid 13 is missing
// from the frame at 5 s.
std::vector<ProcessFrame> frames() {
  std::vector<ProcessFrame> out(4);
  const int64_t rss10[] = {100, 150, 200, 260};
  const int64_t rss11[] = {64, 64, 62, 60};
  for (int i = 0; i < 4; ++i) {
    ProcessFrame& f = out[static_cast<size_t>(i)];
    f.time_unix_ns = kT0 + i * 5 * kSecond;
    f.processes.push_back(process(10, kT0 - kSecond, rss10[i]));
    f.processes.push_back(process(11, kT0 - kSecond, rss11[i]));
    f.processes.push_back(
        process(12, i < 3 ? kT0 - kSecond : kT0 + 12 * kSecond, i < 3 ? 500 : 30));
    // pid 13, started before the recording, is missing from the frame at 5 s (a dropped row).
    if (i != 1) f.processes.push_back(process(13, kT0 - kSecond, 40 + i));
    if (i >= 2) f.processes.push_back(process(20, kT0 + 7 * kSecond, i == 2 ? 50 : 80));
  }
  return out;
}

recording::ProcessBlockList blocks_of(const std::vector<ProcessFrame>& all, size_t per_block) {
  recording::ProcessBlockList blocks;
  for (size_t at = 0; at < all.size(); at += per_block) {
    const auto encoded = store::ProcessBlock::encode(
        std::span(all).subspan(at, std::min(per_block, all.size() - at)));
    auto parsed = store::ProcessBlock::parse(encoded->bytes(), store::ProcessBlockCheck::framing);
    REQUIRE(parsed.ok());
    blocks.push_back(parsed->block);
  }
  return blocks;
}

// Growth by pid at the last frame.
std::map<int32_t, std::optional<int64_t>> growth_at_end(const ProcessHistory& history,
                                                        int64_t span_ns) {
  const auto current = history.at_or_before(kT0 + 15 * kSecond);
  REQUIRE(current.frame != nullptr);
  const RssGrowth growth = rss_growth(history, *current.frame, span_ns);
  std::map<int32_t, std::optional<int64_t>> by_pid;
  for (size_t i = 0; i < current.frame->processes.size(); ++i) {
    by_pid[current.frame->processes[i].pid] = growth.bytes[i];
  }
  return by_pid;
}

}  // namespace

TEST_CASE("rssGrowthIsTheDifferenceFromTheFrameAtTheSpansStart", "[replay][rgrow]") {
  const size_t per_block = GENERATE(size_t{0}, size_t{1}, size_t{3});
  const ProcessHistory history = per_block == 0
                                     ? ProcessHistory(frames(), {})
                                     : ProcessHistory({}, blocks_of(frames(), per_block));
  // 10 s back from 15 s: the frame at 5 s.
  auto growth = growth_at_end(history, 10 * kSecond);
  CHECK(growth[10] == 110 * kMiB);
  CHECK(growth[11] == -4 * kMiB);
  // Between frames (7 s back lands on 8 s): the newest frame at or before it, 5 s.
  CHECK(growth_at_end(history, 7 * kSecond)[10] == 110 * kMiB);
  // 1 s back: the frame at 10 s.
  CHECK(growth_at_end(history, kSecond)[10] == 60 * kMiB);
  // Longer than the recording, or all of it: from its first frame.
  CHECK(growth_at_end(history, 60 * kSecond)[10] == 160 * kMiB);
  CHECK(growth_at_end(history, kWholeRecording)[10] == 160 * kMiB);
}

TEST_CASE("aProcessBornInsideTheSpanGrowsFromItsFirstFrame", "[replay][rgrow]") {
  const size_t per_block = GENERATE(size_t{0}, size_t{1}, size_t{2});
  const ProcessHistory history = per_block == 0
                                     ? ProcessHistory(frames(), {})
                                     : ProcessHistory({}, blocks_of(frames(), per_block));
  auto growth = growth_at_end(history, kWholeRecording);
  // Born at 7 s, first seen at 10 s with 50 MiB: 30 MiB since, not its whole 80 MiB.
  CHECK(growth[20] == 30 * kMiB);
  // pid 12's number was reused at 12 s: the new process is first seen at the cursor.
  CHECK(growth[12] == 0);
  // A span that starts after its birth: from the frame at the span's start, as any process.
  CHECK(growth_at_end(history, kSecond)[20] == 30 * kMiB);
  CHECK(growth_at_end(history, 10 * kSecond)[20] == 30 * kMiB);
  // Not born in the span, yet not in its first frame: no growth rather than a search for it.
  CHECK(growth_at_end(history, 10 * kSecond)[13] == std::nullopt);
  CHECK(growth_at_end(history, kWholeRecording)[13] == 3 * kMiB);
}

TEST_CASE("rssGrowthReadsAsSignedHumanisedBytes", "[replay][rgrow]") {
  CHECK(format_bytes_signed(64.0 * kMiB) == "+64M");
  CHECK(format_bytes_signed(-2.0 * kMiB) == "-2.0M");
  CHECK(format_bytes_signed(512) == "+512B");
  CHECK(format_bytes_signed(0) == "0");
  CHECK(format_bytes_signed(std::nullopt) == "-");
  CHECK(grow_span_text(10 * kSecond) == "10s");
  CHECK(grow_span_text(kWholeRecording) == "all");
}

TEST_CASE("wCyclesTheGrowSpanAndTheRgrowColumnFollows", "[replay][rgrow][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::processes, kSecond);
  const auto leak_growth = [&] {
    const Table& table = session.table();
    const size_t column = *column_named(table, "RGROW");
    for (const Row& row : table.rows) {
      if (row.pid == 201) return *row.cells[column].number;
    }
    FAIL("no leak row");
    return 0.0;
  };
  const auto status = [&] {
    std::string text;
    for (const auto& line : render_screen(session, 120, 30)) text += line.text + "\n";
    return text;
  };
  CHECK(session.grow_span_ns() == kDefaultGrowSpanNs);
  CHECK_THAT(status(), Catch::Contains("RGROW 10s"));
  // The recording is 3 s: 10 s reaches its first frame (100 MiB) from 2500 MiB at 3 s.
  CHECK(leak_growth() == 2400.0 * kMiB);
  session.handle_key('w');
  CHECK(session.grow_span_ns() == 60 * kSecond);
  CHECK(session.message() == "RGROW over 1m00s");
  session.handle_key('w');
  CHECK(session.grow_span_ns() == kWholeRecording);
  CHECK_THAT(status(), Catch::Contains("RGROW all"));
  CHECK(leak_growth() == 2400.0 * kMiB);
  session.handle_key('w');
  CHECK(session.grow_span_ns() == kSecond);
  // 1 s back from 3 s: the frame at 2 s, 4 process frames of 200 MiB before.
  CHECK(leak_growth() == 800.0 * kMiB);
  CHECK_THAT(status(), Catch::Contains("RGROW 1s"));
  session.handle_key('w');
  CHECK(session.grow_span_ns() == kDefaultGrowSpanNs);
}

TEST_CASE("rgrowSortsLikeAnyColumnTheLeakFirst", "[replay][rgrow]") {
  const Model model(fixture(), fixture_users());
  const Table unsorted = model.table(model.timeline().size() - 1, kSecond, Tab::processes, {});
  const auto column = column_named(unsorted, "rgrow");
  REQUIRE(column);
  CHECK(column_named(unsorted, "rss_growth_bytes") == column);
  Arrangement how;
  how.sort_column = column;
  const Table sorted = model.table(model.timeline().size() - 1, kSecond, Tab::processes, how);
  REQUIRE_FALSE(sorted.rows.empty());
  CHECK(sorted.rows.front().pid == 201);
  CHECK(sorted.rows.front().cells[*column].text == "+2.3G");
}
