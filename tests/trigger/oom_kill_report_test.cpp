#include "flightrec/trigger/oom/oom_kill_report.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "temp_dir.h"

using flightrec::trigger::oom::OomKillParser;
using flightrec::trigger::oom::OomKillReport;

namespace {

// The fixture's records, one per line, fed in order; the kills they complete.
std::vector<OomKillReport> kills_in(const std::string& name) {
  std::ifstream file(flightrec::testing::fixture_path("kmsg") / name);
  REQUIRE(file);
  OomKillParser parser;
  std::vector<OomKillReport> kills;
  std::string line;
  while (std::getline(file, line)) {
    if (auto kill = parser.feed(line + "\n")) kills.push_back(std::move(*kill));
  }
  return kills;
}

}  // namespace

TEST_CASE("A cgroup OOM names its victim, the cgroup and its limit", "[oom]") {
  const auto kills = kills_in("memcg_oom.records");
  REQUIRE(kills.size() == 1);
  const OomKillReport& kill = kills[0];
  CHECK(kill.pid == 468);
  CHECK(kill.command == "python3");
  CHECK(kill.uid == 0U);
  CHECK(kill.constraint == "CONSTRAINT_MEMCG");
  const std::string cgroup = "/process_api/c167e577c55cfb5f39d4d508612875b2/flightrec-oom-371";
  CHECK(kill.oom_cgroup == cgroup);
  CHECK(kill.victim_cgroup == cgroup);
  CHECK(kill.cgroup_limit_bytes == 65536U * 1024U);
  CHECK(kill.total_vm_bytes == 78064U * 1024U);
  CHECK(kill.anon_rss_bytes == 65152U * 1024U);
  CHECK(kill.file_rss_bytes == 6688U * 1024U);
  CHECK(kill.shmem_rss_bytes == 0U);
  CHECK(kill.rss_bytes() == (65152U + 6688U) * 1024U);
  CHECK(kill.kernel_time_us == 36815667033);
}

TEST_CASE("A system OOM has no cgroup limit, only the victim's cgroup", "[oom]") {
  const auto kills = kills_in("system_oom.records");
  REQUIRE(kills.size() == 1);
  CHECK(kills[0].pid == 4242);
  CHECK(kills[0].command == "java");
  CHECK(kills[0].uid == 1000U);
  CHECK(kills[0].constraint == "CONSTRAINT_NONE");
  CHECK(kills[0].oom_cgroup.empty());
  CHECK(kills[0].victim_cgroup == "/system.slice/app.service");
  CHECK_FALSE(kills[0].cgroup_limit_bytes.has_value());
  CHECK(kills[0].rss_bytes() == (6291456ULL + 2048 + 1024) * 1024);
}

TEST_CASE("A kill line alone (kernels before 4.19) still names the victim", "[oom]") {
  const auto kills = kills_in("old_kernel_oom.records");
  REQUIRE(kills.size() == 1);
  CHECK(kills[0].pid == 900);
  CHECK(kills[0].command == "worker");
  CHECK(kills[0].constraint.empty());
  CHECK_FALSE(kills[0].cgroup_limit_bytes.has_value());  // without a constraint, not claimed
  CHECK(kills[0].anon_rss_bytes == 1040000U * 1024U);
}

TEST_CASE("Records that are not a kill, or are malformed, give nothing", "[oom]") {
  OomKillParser parser;
  for (const char* record :
       {"", ";", "6,1,2;no flags field", "6,1,x,-;Killed process 1 (a) total-vm:1kB, anon-rss:1kB",
        "6,1,2,-;Killed process 0 (a) total-vm:1kB, anon-rss:1kB",
        "6,1,2,-;Killed process 5 (a) total-vm:1MB, anon-rss:1kB",
        "6,1,2,-;Killed process 5 (a) total-vm:99999999999999999999kB, anon-rss:1kB",
        "6,1,2,-;oom_reaper: reaped process 5 (a), now anon-rss:0kB, file-rss:0kB",
        "6,1,2,-;oom-kill:pid=abc", "6,1,2,-;memory: usage 1kB, limit lots"}) {
    CHECK_FALSE(parser.feed(record).has_value());
  }
  // A command with parentheses and spaces is taken whole.
  const auto kill =
      parser.feed("3,9,10,-;Out of memory: Killed process 7 (a (b) c) total-vm:4kB, anon-rss:4kB");
  REQUIRE(kill);
  CHECK(kill->command == "a (b) c");
  CHECK(kill->file_rss_bytes == 0U);
}
