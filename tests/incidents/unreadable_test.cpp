// Stored incident files the start-up scan cannot read (too many open files, an I/O error; as
// another user, permission denied: tests/e2e/incident_permissions.sh) are left as they are and
// listed as unreadable, never quarantined as corrupt: nothing is known of what they hold.
#include <sys/resource.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <optional>
#include <sstream>
#include <vector>

#include "flightrec/incidents/handlers.h"
#include "flightrec/incidents/incident_file.h"
#include "flightrec/incidents/incident_store.h"
#include "flightrec/incidents/list_command.h"
#include "flightrec/incidents/show_command.h"
#include "incident_fixture.h"

using namespace flightrec::incidents;
using namespace incident_test;
namespace fs = std::filesystem;

namespace {

// While alive, every descriptor under a lowered soft limit is taken: the next open fails with
// EMFILE, as it does in a daemon that has run out of them.
class DescriptorsExhausted {
 public:
  DescriptorsExhausted() {
    getrlimit(RLIMIT_NOFILE, &saved_);
    rlimit lowered = saved_;
    lowered.rlim_cur = 256;
    setrlimit(RLIMIT_NOFILE, &lowered);
    for (int fd = dup(0); fd >= 0; fd = dup(0)) held_.push_back(fd);
  }
  ~DescriptorsExhausted() {
    for (const int fd : held_) close(fd);
    setrlimit(RLIMIT_NOFILE, &saved_);
  }
  DescriptorsExhausted(const DescriptorsExhausted&) = delete;
  DescriptorsExhausted& operator=(const DescriptorsExhausted&) = delete;

 private:
  rlimit saved_{};
  std::vector<int> held_;
};

// Two valid incidents, the older one first.
std::vector<fs::path> seed_two(const fs::path& dir) {
  IncidentStore store({.dir = dir});
  const auto older = write_incident(store, "older", 1000);
  const auto newer = write_incident(store, "newer", 2000);
  return {dir / (older.id + ".flightrec"), dir / (newer.id + ".flightrec")};
}

// A store whose scan cannot open `unreadable` (every descriptor is taken while it is checked).
IncidentStoreOptions options_failing_open_of(const fs::path& dir, const fs::path& unreadable,
                                             std::optional<DescriptorsExhausted>& exhausted) {
  return {.dir = dir,
          .fallback_dir = dir / "fallback-unused",
          .before_verify = [&exhausted, id = unreadable.stem().string()](const std::string& next) {
            if (next == id) {
              exhausted.emplace();
            } else {
              exhausted.reset();
            }
          }};
}

// A regular file whose every read fails with EIO (at offset 0). It cannot be put in a directory
// under an incident's name without a symbolic link, which the store does not follow: the tests
// read it where it is.
const fs::path kFailingReads = "/proc/self/mem";

}  // namespace

TEST_CASE("A stored file that cannot be opened (EMFILE) is logged with its errno and kept",
          "[incidents]") {
  TempDir dir;
  const auto files = seed_two(dir.path());
  StderrCapture log;
  std::optional<DescriptorsExhausted> exhausted;
  {
    IncidentStore store(options_failing_open_of(dir.path(), files[0], exhausted));
    exhausted.reset();
    CHECK(store.stats().quarantined == 0);
    const auto entries = store.list();  // newest first
    REQUIRE(entries.size() == 2);
    CHECK(status_name(entries[0].status) == "written");
    CHECK(status_name(entries[1].status) == "unreadable");
    CHECK(entries[1].error == files[0].string() + ": cannot open: Too many open files");
    CHECK(entries[1].bytes == fs::file_size(files[0]));
    // Served as what it is: a file on disk that could not be opened, not a missing incident.
    CHECK(store.file_of(entries[1].id) == files[0]);
  }
  CHECK(fs::exists(files[0]));
  CHECK_FALSE(fs::exists(files[0].string() + ".corrupt"));
  CHECK(log.count("cannot read a stored incident file") == 1);
  CHECK(log.count("file=" + files[0].string() + " error=\"cannot open: Too many open files\"") ==
        1);
  CHECK(log.count("msg=\"quarantined") == 0);

  // Nothing was lost: a start that can read it indexes it as usual.
  IncidentStore reopened({.dir = dir.path()});
  const auto entries = reopened.list();
  REQUIRE(entries.size() == 2);
  CHECK(status_name(entries[1].status) == "written");
  CHECK(entries[1].incident.rule == "older");
}

TEST_CASE("An unreadable stored file counts toward the bounds and retention deletes it in turn",
          "[incidents]") {
  TempDir dir;
  const auto files = seed_two(dir.path());
  StderrCapture log;
  std::optional<DescriptorsExhausted> exhausted;
  auto options = options_failing_open_of(dir.path(), files[0], exhausted);
  options.max_count = 1;
  IncidentStore store(std::move(options));
  exhausted.reset();
  // Had it been set aside as corrupt it would count for nothing: the bound of one would hold
  // with both files on disk.
  CHECK_FALSE(fs::exists(files[0]));
  CHECK_FALSE(fs::exists(files[0].string() + ".corrupt"));
  CHECK(fs::exists(files[1]));
  CHECK(store.stats().retention_deleted == 1);
  CHECK(store.list().size() == 1);
}

TEST_CASE("A stored file whose reads fail (EIO) is unreadable, not corrupt", "[incidents]") {
  const FileCheck check = check_incident_file(kFailingReads);
  CHECK(check.state == FileState::unreadable);
  CHECK(check.error == "cannot read: Input/output error");
}

TEST_CASE("flightrec incidents names the files it cannot read on stderr and exits 2",
          "[incidents]") {
  TempDir dir;
  const auto files = seed_two(dir.path());
  auto listed = list_incident_directory(dir.path());
  REQUIRE(listed);
  DirectoryListing& listing = *listed;
  listing.incidents.push_back({.id = "20251130T050000.500Z-eio", .path = kFailingReads});
  std::ostringstream out;
  std::ostringstream err;
  const DirectoryScan scan = check_listed_files(std::move(listing));
  CHECK(print_incident_scan(scan, out, err) == 2);
  CHECK(err.str() ==
        "unreadable: " + kFailingReads.string() + ": cannot read: Input/output error\n");
  CHECK_THAT(out.str(), !Catch::Matchers::Contains("corrupt"));
  for (const auto& file : files) {
    CHECK_THAT(out.str(), Catch::Matchers::Contains(file.stem().string() + "  "));
  }
}

TEST_CASE("A symbolic link to a file whose reads fail is skipped, neither read nor moved",
          "[incidents]") {
  TempDir dir;
  const fs::path link = dir.path() / "20251130T050000.000Z-eio.flightrec";
  fs::create_symlink(kFailingReads, link);
  StderrCapture log;
  {
    IncidentStore store({.dir = dir.path(), .fallback_dir = dir.path() / "fallback-unused"});
    CHECK(store.list().empty());
    CHECK(store.stats().quarantined == 0);
    CHECK(store.stats().unreadable == 0);
  }
  CHECK(fs::is_symlink(link));
  CHECK_FALSE(fs::exists(link.string() + ".corrupt"));
  std::ostringstream shown;
  CHECK(show_incident_command(dir.path(), "20251130T050000.000Z-eio", shown) == 1);
  CHECK(shown.str() == link.string() + " is a symbolic link, not a regular file\n");
}

TEST_CASE("flightrec incidents calls a file removed between the listing and its check gone",
          "[incidents]") {
  TempDir dir;
  const auto files = seed_two(dir.path());
  auto listed = list_incident_directory(dir.path());
  REQUIRE(listed);
  DirectoryListing& listing = *listed;
  REQUIRE(listing.incidents.size() == 2);
  fs::remove(files[0]);  // as the daemon's retention does while a listing runs

  CHECK(check_incident_file(files[0]).state == FileState::gone);
  CHECK(check_incident_file(files[0]).error == "cannot open: No such file or directory");
  const DirectoryScan scan = check_listed_files(std::move(listing));
  CHECK(scan.bad.empty());
  CHECK(scan.unreadable.empty());
  CHECK(scan.gone == std::vector<fs::path>{files[0]});
  std::ostringstream out;
  std::ostringstream err;
  CHECK(print_incident_scan(scan, out, err) == 0);
  CHECK_THAT(out.str(), Catch::Matchers::Contains("gone: " + files[0].string() + " ("));
  CHECK_THAT(out.str(), !Catch::Matchers::Contains("corrupt"));
  CHECK(err.str().empty());
}
