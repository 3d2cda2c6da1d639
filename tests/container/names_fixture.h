#pragma once
// What the name resolver's tests share: a copy of a tests/fixtures/container_names tree, a clock
// the test moves, and the ids of the fixtures (sha256 of a word, so they read as ids).
#include <fcntl.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <memory>
#include <string>

#include "fake_proc_tree.h"
#include "flightrec/container/names/name_resolver.h"

namespace flightrec::container::names::testing {

inline const std::string kNginx =
    "5be1ecc7935f1dd85635d4feedaf660594030253cc97c9e9ca3819ffeac36b65";
inline const std::string kLogShipper =
    "e7562220aee1d6e38c5633d241fdb4c1716fb104b37b1ab2abd0b7a2254ac0b2";
inline const std::string kWebSandbox =
    "9ec75e384b0c69031d9f288a010b65ada11d7886fcf167caf7e397edd8a2cbd6";
inline const std::string kEtcd = "c38cbd92fce41312f3fbdce60510013b7f0d4004a03b45c8e762f98f1ed4006c";
inline const std::string kNodeExporter =
    "2303824a4e3dc61fe3195d1a6e978029d4774876cc9aba9d2c60ef85eb96a845";
inline const std::string kNodeExporterSandbox =
    "743606bd35aeb45ed70cbdc4b79220b4e410055a7143eb36860ced415d2b7c46";
inline const std::string kCriDockerd =
    "3813e4821a27beacf374135d86240c2a15141430c96389bbe57784e9bdf19703";
inline const std::string kDb = "7bdc25d1694ef984782a16f6f1710c1c6bc83ba7a131b515baf532bea021d011";
inline const std::string kBeingCreated =
    "cd922735b528a666d0860f561767974766355f2fb49e5bf89b23c40a2ad0e0a7";
inline const std::string kPodmanWeb =
    "f9d688036191e04636c64024ce221730446495d6568b72e14d6ebc8aa23e434f";
inline const std::string kPodmanTmp =
    "350b1288be30a358faa62665addc387534ba3495a5ac753626dec203ea40d19d";
// In no fixture.
inline const std::string kUnknown =
    "d9298a10d1b0735837dc4bd85dac641b0f3cef27a47e5d53a54f2f3f5b2fcffa";

inline const std::string kWebUid = "0f3c5a8e-1b2d-4e6f-8a9b-c0d1e2f3a4b5";
inline const std::string kWebPodDir = "var/log/pods/shop_web-7d9f8b6c5-x2kqp_" + kWebUid;
inline const std::string kTasks = "run/containerd/io.containerd.runtime.v2.task/k8s.io/";

constexpr int64_t kSecond = 1'000'000'000;

// A fixture tree, a resolver reading it, and the resolver's clock.
struct NamesFixture {
  explicit NamesFixture(std::string_view fixture)
      : tree(flightrec::testing::FakeProcTree::copy_of("container_names/" + std::string(fixture))) {
    settings.root = tree.root();
  }

  // The resolver, made on first use so a test can change `settings` first.
  NameResolver& resolver() {
    if (!made) made = std::make_unique<NameResolver>(settings, [this] { return now_ns; });
    return *made;
  }

  // `relative` (a file, or every entry under a directory; the whole tree by default) modified
  // an hour ago, so its stamps are settled: trusted to show a change. Its ctime is now, as
  // after any change.
  void age(const std::filesystem::path& relative = {}) const {
    const timespec old[2] = {{.tv_sec = ::time(nullptr) - 3600, .tv_nsec = 0},
                             {.tv_sec = ::time(nullptr) - 3600, .tv_nsec = 0}};
    const std::filesystem::path top = tree.root() / relative;
    ::utimensat(AT_FDCWD, top.c_str(), old, AT_SYMLINK_NOFOLLOW);
    if (!std::filesystem::is_directory(std::filesystem::symlink_status(top))) return;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(top)) {
      ::utimensat(AT_FDCWD, entry.path().c_str(), old, AT_SYMLINK_NOFOLLOW);
    }
  }

  void advance(int64_t ns) { now_ns += ns; }

  flightrec::testing::FakeProcTree tree;
  NameSettings settings;
  int64_t now_ns = 1000 * kSecond;
  std::unique_ptr<NameResolver> made;
};

}  // namespace flightrec::container::names::testing
