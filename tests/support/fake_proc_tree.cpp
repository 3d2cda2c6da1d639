#include "fake_proc_tree.h"

namespace flightrec::testing {

namespace fs = std::filesystem;

FakeProcTree::FakeProcTree() = default;

FakeProcTree::FakeProcTree(const fs::path& fixture) {
  // Links stay links (a fixture's may point at paths that exist only on the machine it mirrors).
  fs::copy(fixture, root(), fs::copy_options::recursive | fs::copy_options::copy_symlinks);
}

FakeProcTree FakeProcTree::copy_of(std::string_view fixture) {
  return FakeProcTree(fixture_path(fixture));
}

const FakeProcTree& FakeProcTree::file(const fs::path& relative, std::string_view content) const {
  dir_.write(relative, content);
  return *this;
}

const FakeProcTree& FakeProcTree::dir(const fs::path& relative) const {
  fs::create_directories(root() / relative);
  return *this;
}

const FakeProcTree& FakeProcTree::symlink(const fs::path& relative, const fs::path& target) const {
  fs::create_directories((root() / relative).parent_path());
  fs::create_symlink(target, root() / relative);
  return *this;
}

const FakeProcTree& FakeProcTree::remove(const fs::path& relative) const {
  fs::remove_all(root() / relative);
  return *this;
}

}  // namespace flightrec::testing
