// SocketOwners over a fake procfs: <tmp>/<pid>/fd/<n> symlinks to "socket:[N]" and to files.
#include "flightrec/network/socket_owners.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "fake_proc_tree.h"

using namespace flightrec;
using namespace std::chrono_literals;
using network::SocketOwners;

namespace {

// The fd links SocketOwners reads, in a fake procfs.
class FakeProc {
 public:
  void link(const std::string& pid, int fd, const std::string& target) const {
    tree_.symlink(std::filesystem::path(pid) / "fd" / std::to_string(fd), target);
  }
  void socket(const std::string& pid, int fd, uint64_t inode) const {
    link(pid, fd, "socket:[" + std::to_string(inode) + "]");
  }
  [[nodiscard]] sampler::ProcRoot root() const {
    sampler::ProcRoot proc_root;
    proc_root.procfs = tree_.root();
    return proc_root;
  }
  [[nodiscard]] const std::filesystem::path& path() const { return tree_.root(); }

 private:
  testing::FakeProcTree tree_;
};

const SocketOwners::Clock::time_point kStart{10s};

}  // namespace

TEST_CASE("socket inodes map to the process whose fd links name them", "[socket_owners]") {
  FakeProc proc;
  proc.socket("100", 3, 5001);
  proc.link("100", 4, "/dev/null");
  proc.link("100", 5, "pipe:[5003]");
  proc.socket("200", 7, 5002);
  std::filesystem::create_directories(proc.path() / "300");  // no readable fd directory
  proc.socket("self", 3, 5004);                              // not a pid: ignored
  SocketOwners owners(proc.root());
  const std::vector<uint64_t> inodes{5001, 5002, 5003, 5004};
  owners.refresh(inodes, kStart);
  CHECK(owners.scans() == 1);
  CHECK(owners.owner(5001) == 100);
  CHECK(owners.owner(5002) == 200);
  CHECK(owners.owner(5003) == 0);  // a pipe, not a socket
  CHECK(owners.owner(5004) == 0);
  CHECK(owners.last_error().empty());
}

TEST_CASE("a socket shared by several processes goes to the lowest pid", "[socket_owners]") {
  FakeProc proc;
  proc.socket("4242", 3, 7000);
  proc.socket("917", 9, 7000);
  proc.socket("20000", 1, 7000);
  SocketOwners owners(proc.root());
  const std::vector<uint64_t> inodes{7000};
  owners.refresh(inodes, kStart);
  CHECK(owners.owner(7000) == 917);
}

TEST_CASE("an unknown inode rescans at most once per interval", "[socket_owners]") {
  FakeProc proc;
  proc.socket("100", 3, 5001);
  SocketOwners owners(proc.root(), 1000ms);
  owners.refresh(std::vector<uint64_t>{5001}, kStart);
  REQUIRE(owners.scans() == 1);

  proc.socket("100", 4, 5002);  // a socket opened after the scan
  const std::vector<uint64_t> both{5001, 5002};
  owners.refresh(both, kStart + 500ms);
  CHECK(owners.scans() == 1);
  CHECK(owners.owner(5002) == 0);
  CHECK_FALSE(owners.settled(5002));

  owners.refresh(both, kStart + 1000ms);
  CHECK(owners.scans() == 2);
  CHECK(owners.owner(5002) == 100);
  CHECK(owners.owner(5001) == 100);
}

TEST_CASE("known sockets, inode 0 and inodes no process holds do not trigger rescans",
          "[socket_owners]") {
  FakeProc proc;
  proc.socket("100", 3, 5001);
  SocketOwners owners(proc.root(), 1000ms);
  const std::vector<uint64_t> inodes{5001, 0, 6666};
  owners.refresh(inodes, kStart);
  REQUIRE(owners.scans() == 1);
  CHECK(owners.settled(6666));
  CHECK(owners.owner(6666) == 0);
  CHECK(owners.owner(0) == 0);
  owners.refresh(inodes, kStart + 5s);
  owners.refresh(inodes, kStart + 10s);
  CHECK(owners.scans() == 1);
}

TEST_CASE("a missing procfs leaves every socket unowned and says why", "[socket_owners]") {
  sampler::ProcRoot root;
  root.procfs = "/nonexistent/flightrec-procfs";
  SocketOwners owners(root);
  owners.refresh(std::vector<uint64_t>{5001}, kStart);
  CHECK(owners.owner(5001) == 0);
  CHECK_THAT(owners.last_error(), Catch::Contains("/nonexistent/flightrec-procfs"));
}

TEST_CASE("forgetting a gone process rescans and finds the child that kept its socket",
          "[socket_owners]") {
  FakeProc proc;
  proc.socket("100", 3, 5001);
  SocketOwners owners(proc.root(), 1000ms);
  const std::vector<uint64_t> inodes{5001};
  owners.refresh(inodes, kStart);
  REQUIRE(owners.owner(5001) == 100);

  std::filesystem::remove_all(proc.path() / "100");
  proc.socket("150", 3, 5001);
  owners.forget(100);
  CHECK_FALSE(owners.settled(5001));
  owners.refresh(inodes, kStart + 1s);
  CHECK(owners.scans() == 2);
  CHECK(owners.owner(5001) == 150);
}
