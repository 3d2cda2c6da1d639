#include "flightrec/viewer/top_processes.h"

#include <catch2/catch.hpp>
#include <cstdlib>

#include "synthetic_recording.h"

namespace flightrec::viewer {
namespace {

using process::NetCounters;
using process::ProcessFrame;
using process::ProcessRow;

constexpr int64_t kSecond = 1'000'000'000;

ProcessRow row(int32_t pid, uint64_t cpu_ns, uint64_t rss = 0, int64_t started = 0) {
  ProcessRow r;
  r.pid = pid;
  r.comm = "p" + std::to_string(pid);
  r.cpu_user_ns = cpu_ns / 2;
  r.cpu_system_ns = cpu_ns - cpu_ns / 2;
  r.rss_bytes = rss;
  r.start_time_unix_ns = started;
  return r;
}

ProcessFrame frame(int64_t time, std::vector<ProcessRow> rows) {
  return {.time_unix_ns = time, .processes = std::move(rows)};
}

std::vector<int32_t> pids(const TopProcesses& top) {
  std::vector<int32_t> out;
  for (const auto& r : top.rows) out.push_back(r.pid);
  return out;
}

TEST_CASE("shouldCompareTheFramesAroundTheMoment") {
  const std::vector<ProcessFrame> frames{
      frame(0, {row(1, 0), row(2, 0)}),
      frame(1 * kSecond, {row(1, 100'000'000), row(2, 0)}),
      frame(2 * kSecond, {row(1, 200'000'000), row(2, 1'500'000'000)}),
      frame(3 * kSecond, {row(1, 300'000'000), row(2, 1'500'000'000)}),
  };
  const auto top = top_processes(frames, kSecond + kSecond / 2, 10);
  CHECK(top.from_ns == 1 * kSecond);
  CHECK(top.to_ns == 2 * kSecond);
  REQUIRE(pids(top) == std::vector<int32_t>{2, 1});
  CHECK(*top.rows[0].cpu_ratio == Approx(1.5));  // two threads: more than one CPU
  CHECK(*top.rows[1].cpu_ratio == Approx(0.1));
}

TEST_CASE("shouldClampTheMomentToTheRecordingsEnds") {
  const std::vector<ProcessFrame> frames{frame(0, {row(1, 0)}), frame(kSecond, {row(1, 10)}),
                                         frame(2 * kSecond, {row(1, 20)})};
  const auto before = top_processes(frames, -5 * kSecond, 10);
  CHECK(before.from_ns == 0);
  CHECK(before.to_ns == kSecond);
  const auto after = top_processes(frames, 9 * kSecond, 10);
  CHECK(after.from_ns == kSecond);
  CHECK(after.to_ns == 2 * kSecond);
}

TEST_CASE("shouldMeasureANewProcessFromZeroAndAReusedPidNotAtAll") {
  const std::vector<ProcessFrame> frames{
      frame(0, {row(7, 900'000'000, 0, -kSecond)}),
      frame(kSecond, {row(7, 200'000'000, 0, kSecond / 2),  // pid 7 reused by a new process
                      row(8, 300'000'000, 0, kSecond / 4)}),
  };
  const auto top = top_processes(frames, 0, 10);
  REQUIRE(pids(top) == std::vector<int32_t>{8, 7});
  CHECK(*top.rows[0].cpu_ratio == Approx(0.3));
  CHECK(*top.rows[1].cpu_ratio == Approx(0.2));
  // Not in the first frame, yet started well before it (e.g. left out at processes.max_count).
  const std::vector<ProcessFrame> older{frame(0, {}), frame(kSecond, {row(9, 5, 0, -2 * kSecond)})};
  CHECK_FALSE(top_processes(older, 0, 10).rows[0].cpu_ratio.has_value());
}

TEST_CASE("shouldDeriveIoAndNetworkRatesWhereBothSidesAreKnown") {
  auto a = row(1, 0);
  auto b = row(1, 0);
  a.io_read_bytes = 1000;
  b.io_read_bytes = 3000;
  b.io_write_bytes = 50;  // not known before: no rate
  a.net = NetCounters{.tx_bytes = 10, .rx_bytes = 500};
  b.net = NetCounters{.tx_bytes = 410, .rx_bytes = 100};  // rx went backwards: no rate
  const std::vector<ProcessFrame> frames{frame(0, {a}), frame(2 * kSecond, {b})};
  const auto usage = top_processes(frames, 0, 10).rows.at(0);
  CHECK(*usage.read_bytes_per_second == Approx(1000.0));
  CHECK_FALSE(usage.write_bytes_per_second.has_value());
  CHECK(*usage.transmit_bytes_per_second == Approx(200.0));
  CHECK_FALSE(usage.receive_bytes_per_second.has_value());
}

TEST_CASE("shouldMeasureANewProcesssIoAndNetworkFromZero") {
  auto born = row(5, 0, 0, kSecond + kSecond / 2);
  born.io_read_bytes = 4000;
  born.net = NetCounters{.tx_bytes = 600, .rx_bytes = 0};
  const std::vector<ProcessFrame> frames{frame(kSecond, {}), frame(3 * kSecond, {born})};
  const auto usage = top_processes(frames, kSecond, 10).rows.at(0);
  CHECK(*usage.cpu_ratio == Approx(0.0));
  CHECK(*usage.read_bytes_per_second == Approx(2000.0));  // over the interval, not its life
  CHECK_FALSE(usage.write_bytes_per_second.has_value());  // a counter it does not have
  CHECK(*usage.transmit_bytes_per_second == Approx(300.0));
  CHECK(*usage.receive_bytes_per_second == Approx(0.0));
}

TEST_CASE("shouldKeepTheLimitOrderingTiesByMemory") {
  const std::vector<ProcessFrame> frames{
      frame(0, {row(1, 0, 10), row(2, 0, 30), row(3, 0, 20)}),
      frame(kSecond, {row(1, 0, 10), row(2, 0, 30), row(3, 0, 20)}),
  };
  CHECK(pids(top_processes(frames, 0, 2)) == std::vector<int32_t>{2, 3});
}

TEST_CASE("shouldListTheBiggestAndFastestGrowingBesideTheBusiest") {
  // Limit 1: the busiest (1), the biggest (2, idle) and the fastest growing (3) are all listed.
  const std::vector<ProcessFrame> frames{
      frame(0, {row(1, 0, 10), row(2, 0, 1000), row(3, 0, 20), row(4, 0, 5)}),
      frame(kSecond, {row(1, 500'000'000, 10), row(2, 0, 1000), row(3, 0, 500), row(4, 0, 5)}),
  };
  RssGrowth growth;
  growth.seen = {{{3, 0}, {.first_rss = 20, .last_rss = 500}}, {{2, 0}, {1000, 1000}}};
  const auto by_cpu = top_processes(frames, 0, 1, growth, ProcessSort::cpu);
  CHECK(pids(by_cpu) == std::vector<int32_t>{1, 2, 3});  // 2 and 3 idle: the bigger first
  const auto by_rss = top_processes(frames, 0, 1, growth, ProcessSort::rss);
  CHECK(by_rss.sort == ProcessSort::rss);
  CHECK(pids(by_rss) == std::vector<int32_t>{2, 3, 1});
  CHECK(by_rss.rows[1].rss_growth_bytes == 480);
  CHECK(by_rss.rows[0].rss_growth_bytes == 0);
  CHECK_FALSE(by_rss.rows[2].rss_growth_bytes.has_value());  // not in the growth window
}

TEST_CASE("shouldShowASingleFrameWithoutRates") {
  const std::vector<ProcessFrame> frames{frame(5, {row(1, 100, 4096)})};
  const auto top = top_processes(frames, 0, 10);
  CHECK(top.from_ns == 5);
  CHECK(top.to_ns == 5);
  REQUIRE(top.rows.size() == 1);
  CHECK(top.rows[0].rss_bytes == 4096);
  CHECK_FALSE(top.rows[0].cpu_ratio.has_value());
  CHECK(top_processes({}, 0, 10).rows.empty());
}

TEST_CASE("shouldDecodeOnlyTheFramesNearTheMomentAsked", "[viewer][top_processes]") {
  const auto rec = testing::synthetic_recording(20'000, 10'000);
  REQUIRE(rec.process_blocks.size() > 4);
  const auto near = frames_near(rec.process_blocks, rec.trigger_ns);
  REQUIRE(near.size() >= 2);
  CHECK(near.size() < rec.process_frames.size());
  for (const auto& frame : near) {
    CHECK(std::abs(frame.time_unix_ns - rec.trigger_ns) <= 1'000'000'000);
  }
  CHECK(frames_near({}, rec.trigger_ns).empty());
}

TEST_CASE("shouldMeasureRssGrowthFromTheFirstToTheLastFrameHoldingTheProcess",
          "[viewer][rss_growth]") {
  // Frames every 250 ms: the leaker (pid 950) grows 1 MiB a frame from 50 MiB.
  const auto rec = testing::synthetic_recording(20'000, 10'000);
  const auto whole = rss_growth(rec.process_blocks, {});
  CHECK(whole.from_ns == testing::kStartNs);
  CHECK(whole.to_ns == testing::kStartNs + 19'750'000'000);
  CHECK(whole.of(950, testing::kStartNs - 3'600'000'000'000) == int64_t{79} << 20);
  CHECK(whole.of(900, testing::kStartNs - 3'600'000'000'000) == 0);
  CHECK_FALSE(whole.of(950, 0).has_value());  // another process that had pid 950
  // Only the frames inside the range: 2 s to 4 s is frames 8 to 16.
  const auto part = rss_growth(rec.process_blocks, {.from_real_ns = testing::kStartNs + kSecond * 2,
                                                    .to_real_ns = testing::kStartNs + kSecond * 4});
  CHECK(part.from_ns == testing::kStartNs + 2 * kSecond);
  CHECK(part.to_ns == testing::kStartNs + 4 * kSecond);
  CHECK(part.of(950, testing::kStartNs - 3'600'000'000'000) == int64_t{8} << 20);
  // A process that comes in the middle of the window is measured from its first frame.
  const std::vector<ProcessFrame> frames{frame(0, {row(1, 0, 100)}),
                                         frame(kSecond, {row(1, 0, 150), row(2, 0, 40, 7)}),
                                         frame(2 * kSecond, {row(1, 0, 120), row(2, 0, 100, 7)})};
  const std::vector<std::shared_ptr<const store::ProcessBlock>> blocks{
      store::ProcessBlock::encode(frames)};
  const auto late = rss_growth(blocks, {});
  CHECK(late.of(1, 0) == 20);
  CHECK(late.of(2, 7) == 60);
  CHECK(rss_growth({}, {}).from_ns == 0);
}

}  // namespace
}  // namespace flightrec::viewer
