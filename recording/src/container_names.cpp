#include "container_names.h"

#include <algorithm>

#include "flightrec/container/frame/display_name.h"

namespace flightrec::recording::detail {
namespace {

// What display_name() and the lookup read of a row, NUL-separated (none of them holds a NUL: they
// are paths and names from the node's files).
std::string key_of(const container::ContainerRow& row) {
  std::string key;
  for (const std::string* part :
       {&row.path, &row.id, &row.pod_namespace, &row.pod, &row.container, &row.name}) {
    key += *part;
    key += '\0';
  }
  return key;
}

}  // namespace

void ContainerNames::add(const container::ContainerFrame& frame) {
  Frame indexed{.time_unix_ns = frame.time_unix_ns, .rows = {}};
  indexed.rows.reserve(frame.containers.size());
  for (const container::ContainerRow& row : frame.containers) {
    auto& kept = rows_[key_of(row)];
    if (!kept) {
      auto copy = std::make_unique<container::ContainerRow>();
      copy->path = row.path;
      copy->id = row.id;
      copy->pod_namespace = row.pod_namespace;
      copy->pod = row.pod;
      copy->container = row.container;
      copy->name = row.name;
      kept = std::move(copy);
    }
    indexed.rows.push_back(kept.get());
  }
  // A recording may hold its frames in any order (docs/RECORDING_FORMAT.md): each goes to its
  // place in time, after those of the same time.
  const auto place =
      std::upper_bound(frames_.begin(), frames_.end(), frame.time_unix_ns,
                       [](int64_t time, const Frame& f) { return time < f.time_unix_ns; });
  frames_.insert(place, std::move(indexed));
  looked_up_ = -1;
}

std::string ContainerNames::name_of(int64_t time_ns, const process::ProcessRow& row) {
  const int64_t nearest =
      container::nearest_frame(frames_, time_ns, [](const Frame& f) { return f.time_unix_ns; });
  if (nearest < 0) return {};
  if (nearest != looked_up_) {
    lookup_ = container::ContainerLookup(frames_[static_cast<size_t>(nearest)].rows);
    looked_up_ = nearest;
  }
  const container::ContainerRow* found = lookup_.find(row.cgroup, row.container_id);
  return found != nullptr ? container::display_name(*found) : std::string();
}

}  // namespace flightrec::recording::detail
