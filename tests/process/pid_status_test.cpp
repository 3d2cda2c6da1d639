#include "flightrec/process/pid_status.h"

#include <catch2/catch.hpp>

#include "flightrec/process/pid_stat.h"
#include "temp_dir.h"

using flightrec::process::parse_pid_stat;
using flightrec::process::parse_pid_status;
using flightrec::testing::fixture_path;
using flightrec::testing::read_file;

TEST_CASE("parse_pid_status reads uids, memory and threads of a process run as nobody",
          "[pid_status]") {
  const auto result = parse_pid_status(read_file(fixture_path("procs-debian12/5196/status")));
  REQUIRE(result.ok());
  const auto& status = *result;
  CHECK(status.name == "sleep");
  CHECK(status.uid_real == 65534U);
  CHECK(status.uid_effective == 65534U);
  CHECK(status.vm_rss_bytes == 1804U * 1024U);
  CHECK(status.vm_size_bytes == 2920U * 1024U);
  CHECK(status.threads == 1);
}

TEST_CASE("parse_pid_status leaves memory empty for a kernel thread and a zombie", "[pid_status]") {
  for (const char* pid : {"2", "5200"}) {
    const auto result =
        parse_pid_status(read_file(fixture_path("procs-debian12") / pid / "status"));
    REQUIRE(result.ok());
    CHECK_FALSE(result->vm_rss_bytes.has_value());
    CHECK_FALSE(result->vm_size_bytes.has_value());
    CHECK(result->uid_real == 0U);
  }
}

TEST_CASE("parse_pid_status keeps the kernel's escaped newline in Name", "[pid_status]") {
  const auto result = parse_pid_status(read_file(fixture_path("procs-debian12/5384/status")));
  REQUIRE(result.ok());
  CHECK(result->name == "esc\x1b[31m\\nred");
}

TEST_CASE("parse_pid_status agrees with stat on threads and virtual size", "[pid_status]") {
  for (const char* pid : {"2", "5195", "5196", "5197", "5198", "5200", "5383", "5384"}) {
    INFO("pid " << pid);
    const auto stat = parse_pid_stat(read_file(fixture_path("procs-debian12") / pid / "stat"));
    const auto status =
        parse_pid_status(read_file(fixture_path("procs-debian12") / pid / "status"));
    REQUIRE(stat.ok());
    REQUIRE(status.ok());
    CHECK(status->threads == stat->num_threads);
    CHECK(status->vm_size_bytes.value_or(0) == stat->vsize);
  }
}

TEST_CASE("parse_pid_status leaves missing fields empty without an error", "[pid_status]") {
  const auto result = parse_pid_status("Name:\tshort\nState:\tS (sleeping)\n");
  REQUIRE(result.ok());
  CHECK(result->name == "short");
  CHECK_FALSE(result->uid_real.has_value());
  CHECK_FALSE(result->threads.has_value());
}

TEST_CASE("parse_pid_status names the line and key of a malformed value", "[pid_status]") {
  const auto bad_uid = parse_pid_status("Name:\tx\nState:\tR\nUid:\tzero\t0\t0\t0\n");
  REQUIRE_FALSE(bad_uid.ok());
  CHECK_THAT(bad_uid.error(), Catch::Matchers::Contains("line 3 (Uid)"));

  const auto bad_unit = parse_pid_status("VmRSS:\t  1812 MB\n");
  REQUIRE_FALSE(bad_unit.ok());
  CHECK_THAT(bad_unit.error(), Catch::Matchers::Contains("line 1 (VmRSS)"));

  const auto overflow = parse_pid_status("VmSize:\t99999999999999999999 kB\n");
  CHECK_FALSE(overflow.ok());
}
