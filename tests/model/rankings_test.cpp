#include "flightrec/model/rankings.h"

#include <catch2/catch.hpp>

using namespace flightrec;
using process::NetCounters;
using process::ProcessFrame;
using process::ProcessRow;

namespace {

constexpr int64_t kSecond = 1'000'000'000;

ProcessRow row(int32_t pid, uint64_t cpu_ns, uint64_t rss, uint64_t tx_bytes) {
  ProcessRow r;
  r.pid = pid;
  r.start_time_unix_ns = 1;
  r.cpu_user_ns = cpu_ns;
  r.rss_bytes = rss;
  r.net = NetCounters{.tx_bytes = tx_bytes};
  return r;
}

std::vector<int32_t> pids(const ProcessFrame& frame, const std::vector<model::Ranked>& ranked) {
  std::vector<int32_t> out;
  for (const auto& r : ranked) out.push_back(frame.processes[r.row].pid);
  return out;
}

}  // namespace

TEST_CASE("rankingsKeepTheTopNLargestFirstWithTiesToTheLowerPid", "[rankings]") {
  ProcessFrame earlier;
  earlier.time_unix_ns = 10 * kSecond;
  earlier.processes = {row(1, 0, 0, 0), row(2, 0, 0, 0), row(3, 0, 0, 0), row(4, 0, 0, 0)};
  ProcessFrame later;
  later.time_unix_ns = 12 * kSecond;
  later.processes = {row(1, 0, 300, 0), row(2, kSecond, 100, 4000), row(3, kSecond, 200, 0),
                     row(4, 3 * kSecond, 0, 8000)};
  const auto rates = model::process_rates(&earlier, later);
  const auto top = model::rank_processes(later, rates, 2);
  CHECK(pids(later, top.cpu) == std::vector<int32_t>{4, 2});
  CHECK(top.cpu[0].value == Approx(1.5));
  // Nothing used, nothing ranked: pid 4 has no RSS, pids 1 and 3 moved no traffic.
  CHECK(pids(later, top.memory) == std::vector<int32_t>{1, 3});
  CHECK(pids(later, top.network) == std::vector<int32_t>{4, 2});
  CHECK(top.network[1].value == Approx(2000.0));
}

TEST_CASE("rankingsWithoutAnEarlierFrameHoldOnlyMemory", "[rankings]") {
  ProcessFrame later;
  later.time_unix_ns = kSecond;
  later.processes = {row(7, kSecond, 10, 100)};
  const auto top = model::rank_processes(later, model::process_rates(nullptr, later), 5);
  CHECK(top.cpu.empty());
  CHECK(top.network.empty());
  CHECK(pids(later, top.memory) == std::vector<int32_t>{7});
}
