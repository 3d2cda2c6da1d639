#pragma once
// The tests' one fake proc-tree builder: a procfs (or sysfs, cgroupfs) lookalike in a temporary
// directory, for the code that reads under an injectable ProcRoot.
#include <filesystem>
#include <string_view>

#include "temp_dir.h"

namespace flightrec::testing {

// Starts empty or as a copy of a tests/fixtures tree; a test then adds, rewrites or removes the
// entries it needs (a vanished pid, a broken stat, a counter that moved) between two reads.
// The tree is removed when the builder goes out of scope.
class FakeProcTree {
 public:
  FakeProcTree();
  // A copy of tests/fixtures/<fixture>, e.g. "procs-debian12".
  static FakeProcTree copy_of(std::string_view fixture);

  [[nodiscard]] const std::filesystem::path& root() const { return dir_.path(); }

  // Creates or rewrites root()/relative, parents included. A file that exists keeps its inode, as
  // a procfs file regenerates in place: a reader holding it open sees the new content.
  const FakeProcTree& file(const std::filesystem::path& relative, std::string_view content) const;
  const FakeProcTree& dir(const std::filesystem::path& relative) const;
  // root()/relative -> target, as /proc/<pid>/fd/<n> -> "socket:[inode]".
  const FakeProcTree& symlink(const std::filesystem::path& relative,
                              const std::filesystem::path& target) const;
  // Removes root()/relative and everything under it, as a process that exited.
  const FakeProcTree& remove(const std::filesystem::path& relative) const;

 private:
  explicit FakeProcTree(const std::filesystem::path& fixture);
  TempDir dir_{"flightrec-proc"};
};

}  // namespace flightrec::testing
