#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <stdexcept>

#include "snapshot_fixture.h"

using flightrec::snapshot::ProcessEntry;
using flightrec::snapshot::Snapshot;
using flightrec::test::FixtureSnapshot;

namespace {
const ProcessEntry& process(const Snapshot& snapshot, int32_t pid) {
  const auto it = std::find_if(snapshot.processes.begin(), snapshot.processes.end(),
                               [pid](const ProcessEntry& p) { return p.pid == pid; });
  REQUIRE(it != snapshot.processes.end());
  return *it;
}
}  // namespace

TEST_CASE("take_snapshot reads host identity and boot time from the procfs root", "[snapshot]") {
  const Snapshot snapshot = FixtureSnapshot().take();
  CHECK(snapshot.hostname == "vm");
  CHECK(snapshot.kernel_release == "6.18.44-fc-v657");
  CHECK(snapshot.boot_time_unix_ns == 1796011918LL * 1'000'000'000);
  CHECK(snapshot.time_unix_ns == flightrec::test::kSnapshotTimeNs);
  CHECK(snapshot.errors.empty());
}

TEST_CASE("take_snapshot keeps present, bound series and resolves their key label", "[snapshot]") {
  const Snapshot snapshot = FixtureSnapshot().take();
  REQUIRE(snapshot.system.size() == 3);  // the unbound slot and the absent value are skipped
  CHECK(snapshot.system[0].name == "cpu_seconds_total");
  CHECK(snapshot.system[0].value() == Approx(90.36));
  CHECK(snapshot.system[1].raw == 1234567890123);
  CHECK(snapshot.system[2].labels ==
        std::vector<std::pair<std::string, std::string>>{{"device", "vda"}});
  CHECK(snapshot.system[2].raw == 4096);
}

TEST_CASE("take_snapshot converts process times and sizes to seconds and bytes", "[snapshot]") {
  const Snapshot snapshot = FixtureSnapshot().take();
  CHECK(snapshot.processes_listed == 8);
  CHECK(snapshot.processes.size() == 8);
  const ProcessEntry& python = process(snapshot, 5198);
  CHECK(python.utime_seconds == Approx(0.02));
  CHECK(python.stime_seconds == Approx(0.02));
  CHECK(python.rss_bytes == 13520U * 1024U);  // VmRSS, not stat's 3350 pages
  CHECK(python.vsz_bytes == 16961536U);
  CHECK(python.minflt == 2877U);
  CHECK(python.start_time_unix_ns == 1796011918LL * 1'000'000'000 + 438'110'000'000LL);
  CHECK(python.user == "root");
  CHECK(python.uid == 0U);
}

TEST_CASE("take_snapshot names users by effective uid and leaves kernel threads' cmdline empty",
          "[snapshot]") {
  const Snapshot snapshot = FixtureSnapshot().take();
  const ProcessEntry& nobody = process(snapshot, 5196);
  CHECK(nobody.user == "nobody");
  CHECK(nobody.euid == 65534U);
  const ProcessEntry& kthreadd = process(snapshot, 2);
  CHECK(kthreadd.kernel_thread);
  CHECK(kthreadd.cmdline.empty());
  CHECK(kthreadd.rss_bytes == 0);
  CHECK(process(snapshot, 5200).state == 'Z');
}

TEST_CASE("take_snapshot rejects values that do not match the schema", "[snapshot]") {
  const FixtureSnapshot fixture;
  const std::vector<int64_t> too_few(2, 0);
  const flightrec::process::CmdlineRedactor redactor("");
  CHECK_THROWS_AS(flightrec::snapshot::take_snapshot(flightrec::sampler::ProcRoot{}, redactor,
                                                     fixture.schema(), too_few, 0),
                  std::invalid_argument);
}

TEST_CASE("take_snapshot of the live system includes this test process", "[snapshot][live]") {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const flightrec::process::CmdlineRedactor redactor("");
  const Snapshot snapshot = flightrec::snapshot::take_snapshot(
      flightrec::sampler::ProcRoot{}, redactor, {}, {}, std::chrono::nanoseconds(now).count());
  const ProcessEntry& self = process(snapshot, ::getpid());
  CHECK(self.comm == "test_snapshot");
  CHECK(self.rss_bytes > 0);
  CHECK_FALSE(snapshot.hostname.empty());
  CHECK_FALSE(snapshot.kernel_release.empty());
}

TEST_CASE("take_snapshot redacts command lines as processes.redact_cmdline says", "[snapshot]") {
  const FixtureSnapshot fixture;
  const Snapshot plain = fixture.take();
  CHECK(process(plain, 5198).cmdline.find("--flag two words") != std::string::npos);

  const Snapshot redacted = fixture.take("--flag [a-z]+");
  const std::string& cmdline = process(redacted, 5198).cmdline;
  CHECK(cmdline.find("--flag two") == std::string::npos);
  CHECK(cmdline.find("<redacted> words") != std::string::npos);
  CHECK(process(redacted, 5195).cmdline == "sleep 1000");
}
