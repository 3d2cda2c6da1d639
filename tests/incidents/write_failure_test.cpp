#include <sys/mount.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "flightrec/incidents/incident_store.h"
#include "incident_fixture.h"

using namespace flightrec::incidents;
using namespace incident_test;
namespace fs = std::filesystem;

namespace {

uint64_t failed(const IncidentStore& store, FailureCause cause) {
  return store.stats().failed[static_cast<size_t>(cause)];
}

// A tmpfs of `size` mounted on a fresh directory; needs root. Unmounted at the end.
class Tmpfs {
 public:
  explicit Tmpfs(const fs::path& dir, const std::string& size) : dir_(dir) {
    fs::create_directories(dir_);
    mounted_ = mount("tmpfs", dir_.c_str(), "tmpfs", 0, ("size=" + size).c_str()) == 0;
    error_ = mounted_ ? "" : std::strerror(errno);
  }
  ~Tmpfs() {
    if (mounted_) umount(dir_.c_str());
  }
  Tmpfs(const Tmpfs&) = delete;
  Tmpfs& operator=(const Tmpfs&) = delete;
  [[nodiscard]] bool mounted() const { return mounted_; }
  [[nodiscard]] const std::string& error() const { return error_; }
  bool remount(unsigned long flags) {
    return mount("tmpfs", dir_.c_str(), "tmpfs", MS_REMOUNT | flags, nullptr) == 0;
  }

 private:
  fs::path dir_;
  bool mounted_ = false;
  std::string error_;
};

}  // namespace

TEST_CASE("Write errors are classified by errno", "[incidents]") {
  CHECK(cause_of_errno(ENOSPC) == FailureCause::no_space);
  CHECK(cause_of_errno(EDQUOT) == FailureCause::no_space);
  CHECK(cause_of_errno(EROFS) == FailureCause::read_only);
  CHECK(cause_of_errno(EACCES) == FailureCause::permission);
  CHECK(cause_of_errno(EIO) == FailureCause::other);
  CHECK(cause_of_message(std::string("/x: cannot write: ") + std::strerror(ENOSPC)) ==
        FailureCause::no_space);
  CHECK(cause_of_message(std::string("/x: cannot fsync: ") + std::strerror(EIO)) ==
        FailureCause::other);
}

TEST_CASE(
    "A directory that became unwritable fails incidents without throwing, logs once per "
    "cause, and recovers",
    "[incidents]") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "incidents";
  StderrCapture log;
  IncidentStore store({.dir = dir});
  // A regular file in place of the directory: fails for root too, where chmod would not.
  fs::remove_all(dir);
  write_bytes(dir, "in the way");

  const auto first = write_incident(store, "cpu", 1000);
  const auto second = write_incident(store, "cpu", 2000);
  CHECK(first.status == IncidentStatus::failed);
  CHECK(second.status == IncidentStatus::failed);
  CHECK(first.cause == FailureCause::other);
  CHECK_THAT(first.error, Catch::Matchers::Contains(dir.string()));
  CHECK(failed(store, FailureCause::other) == 2);
  CHECK(store.stats().by_rule.at("cpu").failed == 2);
  CHECK(log.count("cannot write an incident file") == 1);
  const auto listed = store.list();
  REQUIRE(listed.size() == 2);
  CHECK(listed[0].id == second.id);
  CHECK(listed[0].status == IncidentStatus::failed);
  CHECK_FALSE(store.file_of(first.id).has_value());

  fs::remove(dir);  // the condition is fixed: the next incident is written
  const auto third = write_incident(store, "cpu", 3000);
  CHECK(third.status == IncidentStatus::written);
  CHECK(fs::exists(dir / (third.id + ".flightrec")));
  CHECK(store.stats().written == 1);
  CHECK(store.stats().last_fired_ns == make_info("cpu", 3000).fired_at_ns);
}

TEST_CASE("Permission denied fails with cause permission (needs a non-root user)", "[incidents]") {
  if (running_as_root()) {
    WARN(
        "skipped: root writes through mode 0500; the read-only and file-in-the-way tests cover "
        "the failure path");
    return;
  }
  TempDir tmp;
  StderrCapture log;
  IncidentStore store({.dir = tmp.path()});
  chmod(tmp.path().c_str(), 0500);
  const auto entry = write_incident(store, "cpu", 1000);
  chmod(tmp.path().c_str(), 0700);
  CHECK(entry.status == IncidentStatus::failed);
  CHECK(entry.cause == FailureCause::permission);
  CHECK(failed(store, FailureCause::permission) == 1);
}

TEST_CASE("A read-only file system fails with cause read_only and recovers when remounted rw",
          "[incidents][root]") {
  if (!running_as_root()) {
    WARN("skipped: mounting a tmpfs needs root");
    return;
  }
  TempDir tmp;
  Tmpfs mount_point(tmp.path() / "ro", "1m");
  if (!mount_point.mounted()) {
    WARN("skipped: cannot mount a tmpfs: " + mount_point.error());
    return;
  }
  StderrCapture log;
  IncidentStore store({.dir = tmp.path() / "ro"});
  REQUIRE(mount_point.remount(MS_RDONLY));
  const auto first = write_incident(store, "cpu", 1000);
  const auto second = write_incident(store, "cpu", 2000);
  CHECK(first.status == IncidentStatus::failed);
  CHECK(first.cause == FailureCause::read_only);
  CHECK(failed(store, FailureCause::read_only) == 2);
  CHECK(log.count("cause=read_only") == 1);

  REQUIRE(mount_point.remount(0));
  CHECK(write_incident(store, "cpu", 3000).status == IncidentStatus::written);
}

TEST_CASE(
    "A full disk fails with cause no_space, leaves no temporary, and recovers when space "
    "is freed",
    "[incidents][root]") {
  if (!running_as_root()) {
    WARN("skipped: mounting a tmpfs needs root");
    return;
  }
  TempDir tmp;
  const fs::path dir = tmp.path() / "small";
  Tmpfs mount_point(dir, "256k");
  if (!mount_point.mounted()) {
    WARN("skipped: cannot mount a tmpfs: " + mount_point.error());
    return;
  }
  StderrCapture log;
  IncidentStore store({.dir = dir});
  write_bytes(dir / "filler", std::string(250 * 1024, 'x'));

  // Enough frames that the file cannot fit in what is left.
  const auto first = write_incident(store, "cpu", 1000, 20000);
  const auto second = write_incident(store, "mem", 2000, 20000);
  CHECK(first.status == IncidentStatus::failed);
  CHECK(first.cause == FailureCause::no_space);
  CHECK(second.cause == FailureCause::no_space);
  CHECK(failed(store, FailureCause::no_space) == 2);
  CHECK(log.count("cause=no_space") == 1);
  size_t leftovers = 0;
  for (const auto& item : fs::directory_iterator(dir)) {
    if (item.path().filename() != "filler") ++leftovers;
  }
  CHECK(leftovers == 0);

  fs::remove(dir / "filler");
  const auto third = write_incident(store, "cpu", 3000, 20000);
  CHECK(third.status == IncidentStatus::written);
  CHECK(store.stats().written == 1);
}
