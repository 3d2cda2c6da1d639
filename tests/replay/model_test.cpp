#include "flightrec/replay/model.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "replay_fixture.h"

using namespace flightrec::replay;
using namespace flightrec::replay::testing;

namespace {

size_t sample_at(const Model& model, int64_t offset_ns) {
  return model.timeline().at_or_before(kStartNs + offset_ns);
}

}  // namespace

TEST_CASE("timelineStepsBySamplesAndTimeClampedToTheWindow", "[replay][timeline]") {
  const Timeline timeline({0, 10, 20, 30, 100, 110});
  CHECK(timeline.at_or_before(-5) == 0);
  CHECK(timeline.at_or_before(25) == 2);
  CHECK(timeline.at_or_before(1000) == 5);
  CHECK(timeline.step(1, -3) == 0);
  CHECK(timeline.step(1, 2) == 3);
  CHECK(timeline.step(4, 10) == 5);
  CHECK(timeline.step_time(0, 20) == 2);
  // A gap longer than the step still moves the cursor, by one sample.
  CHECK(timeline.step_time(3, 20) == 4);
  CHECK(timeline.step_time(4, -20) == 3);
}

TEST_CASE("rateIntervalStartsAnIntervalBackOrAtTheFirstSample", "[replay][timeline]") {
  const Timeline timeline({0, 10, 20, 30, 40});
  CHECK_FALSE(timeline.interval_start(0, 10).has_value());
  CHECK(timeline.interval_start(4, 0) == 3u);
  CHECK(timeline.interval_start(4, 20) == 2u);
  CHECK(timeline.interval_start(4, 15) == 2u);
  CHECK(timeline.interval_start(2, 1000) == 0u);
}

TEST_CASE("systemViewDerivesCpuBusyFromTickDeltasPerCpu", "[replay][system]") {
  const Model model(fixture(), fixture_users());
  const auto view = model.system(sample_at(model, 3'000'000'000), 1'000'000'000);
  REQUIRE(view.cpus.size() == 2);
  CHECK(view.cpus[0].cpu == "0");
  CHECK(view.cpus[0].ratio == Approx(0.75));
  CHECK(view.cpus[1].ratio == Approx(1.0));
  CHECK(view.cpu_total == Approx(0.875));
  CHECK(view.interval_ns == 1'000'000'000);
  // Before cpu1 started working it was idle.
  const auto early = model.system(sample_at(model, 800'000'000), 500'000'000);
  CHECK(early.cpus[1].ratio == Approx(0.0));
}

TEST_CASE("systemViewGivesMemoryDiskNetAndPressureAtTheCursor", "[replay][system]") {
  const Model model(fixture(), fixture_users());
  const size_t at = sample_at(model, 3'000'000'000);
  const auto view = model.system(at, 1'000'000'000);
  CHECK(view.mem_total_bytes == Approx(static_cast<double>(kMemTotal)));
  CHECK(view.mem_used_bytes ==
        Approx(static_cast<double>(kMemTotal - 3584 * kMiB + leak_rss(300))));
  CHECK(view.swap_used_bytes == Approx(64.0 * static_cast<double>(kMiB)));
  CHECK(view.load1 == Approx(3.5));
  CHECK(view.disk_read_bps == Approx(static_cast<double>(kDiskReadPerFrame) * 100));
  // lo is left out of the network rate.
  CHECK(view.net_rx_bps == Approx(static_cast<double>(kNetRxPerFrame) * 100));
  REQUIRE(view.pressure.size() == 1);
  CHECK(view.pressure[0].resource == "memory");
  CHECK(view.pressure[0].some == Approx(0.25));
  CHECK_FALSE(view.pressure[0].full.has_value());
}

TEST_CASE("ratesOverOneSampleUseTheSampleBefore", "[replay][system]") {
  const Model model(fixture(), fixture_users());
  const auto view = model.system(sample_at(model, 3'000'000'000), 0);
  CHECK(view.interval_ns == kRateNs);
  CHECK(view.disk_read_bps == Approx(static_cast<double>(kDiskReadPerFrame) * 100));
}

TEST_CASE("cpuRatiosNeverCoverLessThanTheirSignalsWindow", "[replay][system]") {
  const Model model(fixture(), fixture_users());
  const auto view = model.system(sample_at(model, 3'000'000'000), 0);
  // One 10 ms step of /proc/stat would read cpu0 as wholly busy or wholly idle: its ratio covers
  // the 100 ms the recorder derives it over (8 busy ticks of 10 there), as /metrics showed it.
  REQUIRE(view.cpus[0].ratio.has_value());
  CHECK(*view.cpus[0].ratio == Approx(0.8));
  // The all-CPU ratio comes from the /proc/stat "cpu" line over 100 ms too (no cgroup here).
  CHECK(view.cpu_total == Approx(0.9));
}

TEST_CASE("absentValuesAndTheFirstSampleGiveNoValueNotZero", "[replay][system]") {
  const Model model(fixture(), fixture_users());
  const auto first = model.system(0, 1'000'000'000);
  CHECK(first.interval_ns == 0);
  CHECK_FALSE(first.cpu_total.has_value());
  CHECK_FALSE(first.disk_read_bps.has_value());
  CHECK(first.mem_total_bytes.has_value());  // gauges need no earlier sample
  const auto gap = model.system(static_cast<size_t>(kSwapAbsentFrame), 1'000'000'000);
  CHECK_FALSE(gap.swap_used_bytes.has_value());
  CHECK(gap.swap_total_bytes.has_value());
}

TEST_CASE("aCounterThatWentBackwardsGivesNoRate", "[replay][system]") {
  ReplayData data;
  flightrec::recording::Metadata meta;
  meta.rate_ns = kRateNs;
  meta.series = {{"disk_read_bytes_total",
                  {{"device", "sda"}},
                  "bytes",
                  flightrec::sampler::SeriesKind::counter,
                  1.0,
                  "fixture"}};
  const std::vector<flightrec::sampler::FrameHeader> headers{
      {0, 0, kStartNs}, {1, kRateNs, kStartNs + kRateNs}, {2, 2 * kRateNs, kStartNs + 2 * kRateNs}};
  const std::vector<int64_t> values{100, 50, 150};  // a reset between the first two
  data.meta = meta;
  data.blocks = {flightrec::store::Block::encode(headers, values, 1, kRateNs)};
  const Model model(std::move(data), fixture_users());
  CHECK_FALSE(model.system(1, 0).disk_read_bps.has_value());
  CHECK(model.system(2, 0).disk_read_bps == Approx(100.0 / 0.01));
}

TEST_CASE("processesAtTheCursorComeFromTheNewestFrameAtOrBeforeIt", "[replay][processes]") {
  const Model model(fixture(), fixture_users());
  // 1.3 s: the frame of 1.25 s, which has the short-lived pid 203.
  const auto at = model.processes(sample_at(model, 1'300'000'000), 0);
  REQUIRE(at.frame != nullptr);
  CHECK(at.frame->time_unix_ns == kStartNs + 5 * kProcessPeriodNs);
  REQUIRE(at.previous != nullptr);
  CHECK(at.previous->time_unix_ns == kStartNs + 4 * kProcessPeriodNs);
  const auto short_lived = std::find_if(at.rows.begin(), at.rows.end(),
                                        [](const ProcessRates& r) { return r.row->pid == 203; });
  REQUIRE(short_lived != at.rows.end());
  CHECK_FALSE(short_lived->cpu.has_value());  // no earlier sample of it: no rate
}

TEST_CASE("processRatesComeFromCounterDeltasOverTheInterval", "[replay][processes]") {
  const Model model(fixture(), fixture_users());
  const auto at = model.processes(sample_at(model, 3'000'000'000), 1'000'000'000);
  REQUIRE(at.previous != nullptr);
  CHECK(at.previous->time_unix_ns == kStartNs + 2'000'000'000);
  const auto row = [&](int32_t pid) {
    return *std::find_if(at.rows.begin(), at.rows.end(),
                         [&](const ProcessRates& r) { return r.row->pid == pid; });
  };
  CHECK(row(202).cpu == Approx(1.0));
  CHECK(row(201).cpu == Approx(0.2));
  CHECK(row(201).mem ==
        Approx(static_cast<double>(leak_rss(300)) / static_cast<double>(kMemTotal)));
  CHECK(row(201).write_bps == Approx(4.0 * static_cast<double>(kMiB)));
  CHECK(row(300).tx_bps == Approx(200'000.0));
  CHECK(row(300).rx_pps == Approx(120.0));
  CHECK_FALSE(row(2).read_bps.has_value());  // no /proc/<pid>/io for it
  CHECK(at.unattributed_tx_bps == Approx(4000.0));
}

TEST_CASE("aReusedPidGetsNoRateFromTheOldProcess", "[replay][processes]") {
  ReplayData data = fixture();
  for (auto& row : data.process_frames.back().processes) {
    if (row.pid == 202) row.start_time_unix_ns += 1;
  }
  const Model model(std::move(data), fixture_users());
  const auto at = model.processes(model.timeline().size() - 1, 0);
  const auto burn = std::find_if(at.rows.begin(), at.rows.end(),
                                 [](const ProcessRates& r) { return r.row->pid == 202; });
  REQUIRE(burn != at.rows.end());
  CHECK_FALSE(burn->cpu.has_value());
}

TEST_CASE("aProcessBornBetweenTheFramesCountsFromZero", "[replay][processes]") {
  ReplayData data = fixture();
  const int64_t previous_ns = data.process_frames[data.process_frames.size() - 2].time_unix_ns;
  auto& last = data.process_frames.back().processes;
  flightrec::process::ProcessRow born;
  born.pid = 250;
  born.comm = "make";
  born.start_time_unix_ns = previous_ns + kProcessPeriodNs / 2;
  born.cpu_user_ns = kProcessPeriodNs / 4;  // a quarter of the interval, though it ran for half
  born.io_write_bytes = 1'000'000;
  last.insert(std::upper_bound(last.begin(), last.end(), born.pid,
                               [](int32_t pid, const auto& row) { return pid < row.pid; }),
              born);
  const Model model(std::move(data), fixture_users());
  const auto at = model.processes(model.timeline().size() - 1, 0);
  REQUIRE(at.previous != nullptr);
  REQUIRE(at.previous->time_unix_ns == previous_ns);
  const auto make = std::find_if(at.rows.begin(), at.rows.end(),
                                 [](const ProcessRates& r) { return r.row->pid == 250; });
  REQUIRE(make != at.rows.end());
  CHECK(make->cpu == Approx(0.25));
  CHECK(make->write_bps == Approx(4'000'000.0));
  CHECK_FALSE(make->read_bps.has_value());
}

TEST_CASE("theTimelineFallsBackToProcessFramesWithoutSystemSeries", "[replay][timeline]") {
  ReplayData data = fixture();
  data.blocks.clear();
  const Model model(std::move(data), fixture_users());
  CHECK(model.timeline().size() == static_cast<size_t>(kProcessFrames));
  const auto at = model.processes(3, 0);
  REQUIRE(at.frame != nullptr);
  CHECK(at.frame->time_unix_ns == kStartNs + 3 * kProcessPeriodNs);
  CHECK(model.system(3, 0).cpus.empty());
}

TEST_CASE("triggersComeFromIncidentMetadata", "[replay][model]") {
  const Model model(fixture(), fixture_users());
  REQUIRE(model.triggers().size() == 1);
  CHECK(model.triggers()[0].time_ns == kTriggerNs);
  CHECK(model.triggers()[0].label == "memory_available_bytes < 2e9 (value 1.84 GiB)");
  CHECK(triggers_of(flightrec::recording::Metadata{}).empty());
}

TEST_CASE("aTriggerWithoutAValueShowsNone", "[replay][model]") {
  flightrec::recording::Metadata manual;
  manual.extra = {{"incident.rule", "manual"},
                  {"incident.value", "nan"},
                  {"incident.fired_at_ns", std::to_string(kTriggerNs)}};
  REQUIRE(triggers_of(manual).size() == 1);
  CHECK(triggers_of(manual)[0].label == "manual");
}

TEST_CASE("cursorTimesAcceptOffsetsAbsoluteTimesAndWords", "[replay][model]") {
  const int64_t end = kStartNs + 3'000'000'000;
  CHECK(*parse_cursor_time("+2.5s", kStartNs, end) == kStartNs + 2'500'000'000);
  CHECK(*parse_cursor_time("-1s", kStartNs, end) == end - 1'000'000'000);
  CHECK(*parse_cursor_time("+250ms", kStartNs, end) == kStartNs + 250'000'000);
  CHECK(*parse_cursor_time("2025-11-30T05:00:01.5Z", kStartNs, end) == kStartNs + 1'500'000'000);
  CHECK(*parse_cursor_time("1764478801", kStartNs, end) == kStartNs + 1'000'000'000);
  CHECK(*parse_cursor_time("start", kStartNs, end) == kStartNs);
  CHECK(*parse_cursor_time("end", kStartNs, end) == end);
  const auto bad = parse_cursor_time("yesterday", kStartNs, end);
  CHECK_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Catch::Contains("\"yesterday\""));
  CHECK_FALSE(parse_cursor_time("+soon", kStartNs, end).ok());
}

TEST_CASE("cursorTimesBeyondWhatIsHeldSayOutOfRangeNotMalformed", "[replay][model]") {
  const int64_t end = kStartNs + 3'000'000'000;
  const std::string range =
      "is not a time (out of range: times run from 1677-09-21T00:12:45Z to 2262-04-11T23:47:15Z)";
  CHECK(parse_cursor_time("9999-12-31T23:59:59Z", kStartNs, end).error() ==
        "time: \"9999-12-31T23:59:59Z\" " + range);
  CHECK(parse_cursor_time("9999-12-31 23:59:59", kStartNs, end).error() ==
        "time: \"9999-12-31 23:59:59\" " + range);
  CHECK(parse_cursor_time("2025-13-30 05:00:01", kStartNs, end).error() ==
        "time: \"2025-13-30 05:00:01\" is not a time (month 13 out of range)");
}

TEST_CASE("cursorTimesAcceptTheSpaceFormAndATimeOfDay", "[replay][model]") {
  const int64_t end = kStartNs + 3'000'000'000;
  CHECK(*parse_cursor_time("2025-11-30 05:00:01", kStartNs, end) == kStartNs + 1'000'000'000);
  CHECK(*parse_cursor_time("2025-11-30 05:00:01.25Z", kStartNs, end) == kStartNs + 1'250'000'000);
  CHECK(*parse_cursor_time("05:00:02", kStartNs, end) == kStartNs + 2'000'000'000);
  CHECK(*parse_cursor_time("05:00:02.123", kStartNs, end) == kStartNs + 2'123'000'000);
  // A window across midnight: the time of day on the date where it falls inside.
  const int64_t late = kStartNs + (19 * 3600 - 1) * int64_t{1'000'000'000};  // 23:59:59
  const int64_t after_midnight = late + 2'000'000'000;
  CHECK(*parse_cursor_time("00:00:00.5", late, after_midnight) == late + 1'500'000'000);
  CHECK_FALSE(parse_cursor_time("25:00:00", kStartNs, end).ok());
}

TEST_CASE("placingTheCursorOutsideTheRecordingClampsWithANote", "[replay][model]") {
  const Model model(fixture(), fixture_users());
  const Timeline& timeline = model.timeline();
  const CursorPlace inside = place_cursor(timeline, "+1s", kStartNs + 1'000'000'000);
  CHECK(inside.index == 100);
  CHECK(inside.note.empty());
  const CursorPlace before = place_cursor(timeline, "-20s", kStartNs - 17'000'000'000);
  CHECK(before.index == 0);
  CHECK(before.note ==
        "-20s (2025-11-30T04:59:43.000Z) is before the recording's start "
        "2025-11-30T05:00:00.000Z: showing its start");
  const CursorPlace after = place_cursor(timeline, "+1m", kStartNs + 60'000'000'000);
  CHECK(after.index == timeline.size() - 1);
  CHECK_THAT(after.note, Catch::EndsWith("showing its end"));
}

TEST_CASE("intervalsParseDurationsAndSample", "[replay][model]") {
  CHECK(parse_interval("sample") == 0);
  CHECK(parse_interval("10ms") == 10'000'000);
  CHECK(parse_interval("1s") == 1'000'000'000);
  CHECK_FALSE(parse_interval("-1s").has_value());
  CHECK_FALSE(parse_interval("fast").has_value());
}

TEST_CASE("deviceRatesSumTheDevicesThatHaveValues", "[replay][system]") {
  ReplayData data;
  data.meta.rate_ns = kRateNs;
  for (const char* device : {"sda", "(unbound 1)"}) {
    data.meta.series.push_back({"disk_read_bytes_total",
                                {{"device", device}},
                                "bytes",
                                flightrec::sampler::SeriesKind::counter,
                                1.0,
                                "fixture"});
  }
  const std::vector<flightrec::sampler::FrameHeader> headers{{0, 0, kStartNs},
                                                             {1, kRateNs, kStartNs + kRateNs}};
  const int64_t absent = flightrec::sampler::kAbsent;
  const std::vector<int64_t> values{100, absent, 300, absent};
  data.blocks = {flightrec::store::Block::encode(headers, values, 2, kRateNs)};
  const Model model(std::move(data), fixture_users());
  CHECK(model.system(1, 0).disk_read_bps == Approx(200.0 / 0.01));
}
