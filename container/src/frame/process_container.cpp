#include "flightrec/container/frame/process_container.h"

#include <algorithm>

namespace flightrec::container {
namespace {

std::vector<const ContainerRow*> rows_of(const ContainerFrame& frame) {
  std::vector<const ContainerRow*> rows;
  rows.reserve(frame.containers.size());
  for (const ContainerRow& row : frame.containers) rows.push_back(&row);
  return rows;
}

}  // namespace

ContainerLookup::ContainerLookup(const ContainerFrame& frame) : ContainerLookup(rows_of(frame)) {}

ContainerLookup::ContainerLookup(std::vector<const ContainerRow*> rows)
    : by_path_(std::move(rows)) {
  // Sorted here rather than trusted: a frame from a file is ascending only if its writer kept to
  // it.
  std::sort(by_path_.begin(), by_path_.end(),
            [](const ContainerRow* a, const ContainerRow* b) { return a->path < b->path; });
  by_id_.reserve(by_path_.size());
  for (const ContainerRow* row : by_path_) {
    if (!row->id.empty()) by_id_.emplace(row->id, row);
  }
}

const ContainerRow* ContainerLookup::find(std::string_view cgroup,
                                          std::string_view container_id) const {
  if (!container_id.empty()) {
    if (const auto found = by_id_.find(container_id); found != by_id_.end()) return found->second;
  }
  // The cgroup itself, then each directory above it, up to (not including) the root.
  std::string_view path = cgroup;
  while (path.size() > 1 && path.starts_with('/')) {
    const auto found = std::lower_bound(
        by_path_.begin(), by_path_.end(), path,
        [](const ContainerRow* row, std::string_view wanted) { return row->path < wanted; });
    if (found != by_path_.end() && (*found)->path == path) return *found;
    path = path.substr(0, path.rfind('/'));
  }
  return nullptr;
}

}  // namespace flightrec::container
