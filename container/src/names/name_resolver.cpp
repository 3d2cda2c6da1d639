#include "flightrec/container/names/name_resolver.h"

#include <set>
#include <utility>

#include "flightrec/common/clock.h"
#include "flightrec/container/names/kubernetes_names.h"
#include "flightrec/container/names/runtime_state.h"
#include "log_sources.h"
#include "name_source.h"
#include "state_sources.h"

namespace flightrec::container::names {
namespace {

using detail::NameTable;

int64_t ns_of(std::chrono::milliseconds duration) {
  return std::chrono::nanoseconds(duration).count();
}

void fill(std::string& field, const std::string& value) {
  if (field.empty()) field = value;
}

// Every field `names` lacks, from `from`.
void fill_all(ContainerNames& names, const ContainerNames& from) {
  fill(names.pod_namespace, from.pod_namespace);
  fill(names.pod, from.pod);
  fill(names.pod_uid, from.pod_uid);
  fill(names.container, from.container);
  fill(names.name, from.name);
  fill(names.image, from.image);
}

// The one pod /var/log/pods has under `names`' namespace and name: the one present, or else the
// one gone; none when there are two (a pod deleted and made again under its name, the logs of
// both still there), as it cannot tell which.
const NameTable::Row* only_pod_named(const NameTable& pods, const ContainerNames& names) {
  const NameTable::Row* present = nullptr;
  const NameTable::Row* gone = nullptr;
  int present_count = 0;
  int gone_count = 0;
  for (const auto& [uid, row] : pods.rows()) {
    if (row.names.pod != names.pod || row.names.pod_namespace != names.pod_namespace) continue;
    if (row.gone_since_ns) {
      gone = &row;
      ++gone_count;
    } else {
      present = &row;
      ++present_count;
    }
  }
  if (present_count == 1) return present;
  return present_count == 0 && gone_count == 1 ? gone : nullptr;
}

}  // namespace

std::filesystem::path under_root(const NameSettings& settings, const std::filesystem::path& path) {
  return settings.root / path.relative_path();
}

NameResolver::NameResolver(NameSettings settings)
    : NameResolver(std::move(settings), [] { return clock_ns(CLOCK_MONOTONIC); }) {}

NameResolver::NameResolver(NameSettings settings, Clock clock)
    : settings_(std::move(settings)), clock_(std::move(clock)) {
  const auto at = [&](const std::filesystem::path& path) { return under_root(settings_, path); };
  if (!settings_.pod_logs.empty()) {
    pods_ = std::make_unique<detail::PodLogSource>(at(settings_.pod_logs));
  }
  // In the order their names are trusted: the kubelet's own record, then the CRI's
  // annotations, then what the runtimes were told.
  if (!settings_.container_logs.empty()) {
    containers_.push_back(
        std::make_unique<detail::ContainerLogSource>(at(settings_.container_logs)));
  }
  if (!settings_.containerd_tasks.empty()) {
    containers_.push_back(std::make_unique<detail::ContainerFileSource>(
        at(settings_.containerd_tasks), "config.json", &parse_bundle_config));
  }
  if (!settings_.docker_containers.empty()) {
    containers_.push_back(std::make_unique<detail::ContainerFileSource>(
        at(settings_.docker_containers), "config.v2.json", &parse_docker_config));
  }
  for (const auto& store : settings_.storage_containers) {
    if (store.empty()) continue;
    for (const char* list : {"containers.json", "volatile-containers.json"}) {
      containers_.push_back(std::make_unique<detail::ContainerListSource>(at(store) / list));
    }
  }
}

NameResolver::~NameResolver() = default;

std::optional<ContainerNames> NameResolver::resolve(std::string_view id, std::string_view pod_uid) {
  const std::lock_guard lock(mutex_);
  ++stats_.lookups;
  const int64_t now = clock_();
  if (now >= next_refresh_ns_) refresh_locked(now);
  const std::string uid = normalize_pod_uid(pod_uid);
  auto names = lookup_locked(id, uid);
  const auto knows_id = [&] {
    for (const auto& source : containers_) {
      if (source->table().find(id) != nullptr) return true;
    }
    return false;
  };
  // A container none of the sources knows may be too new for the last look: look again, but
  // not for every lookup of one that will never be known (a systemd service's cgroup).
  if (now >= next_miss_refresh_ns_ && !knows_id()) {
    next_miss_refresh_ns_ = now + ns_of(settings_.miss_rescan_period);
    refresh_locked(now);
    names = lookup_locked(id, uid);
  }
  if (!names) ++stats_.unnamed;
  return names;
}

std::optional<ContainerNames> NameResolver::lookup_locked(std::string_view id,
                                                          const std::string& pod_uid) const {
  ContainerNames names;
  names.id = id;
  bool known = false;
  bool gone = true;
  for (const auto& source : containers_) {
    const NameTable::Row* row = source->table().find(id);
    if (row == nullptr) continue;
    fill_all(names, row->names);
    known = true;
    gone = gone && row->gone_since_ns.has_value();
  }
  if (pods_ != nullptr && names.pod_uid.empty()) {
    const NameTable::Row* pod = nullptr;
    if (!pod_uid.empty()) {
      pod = pods_->table().find(pod_uid);
      // The caller's uid names the pod only if the container's names do not name another.
      if (pod != nullptr && !names.pod.empty() &&
          (pod->names.pod != names.pod || pod->names.pod_namespace != names.pod_namespace)) {
        pod = nullptr;
      }
    }
    if (pod == nullptr && !names.pod.empty()) pod = only_pod_named(pods_->table(), names);
    if (pod != nullptr) {
      fill_all(names, pod->names);
      gone = known ? gone : pod->gone_since_ns.has_value();
      known = true;
    }
  }
  if (!known) return std::nullopt;
  names.gone = gone;
  return names;
}

void NameResolver::refresh() {
  const std::lock_guard lock(mutex_);
  refresh_locked(clock_());
}

void NameResolver::refresh_locked(int64_t now_ns) {
  next_refresh_ns_ = now_ns + ns_of(settings_.rescan_period);
  detail::RefreshContext context{
      .now_ns = now_ns, .settings = settings_, .stats = stats_, .problems = problems_};
  if (pods_ != nullptr) pods_->refresh(context);
  for (const auto& source : containers_) source->refresh(context);
  std::set<std::string_view> ids;
  std::set<std::string_view> present;
  for (const auto& source : containers_) {
    for (const auto& [id, row] : source->table().rows()) {
      ids.insert(id);
      if (!row.gone_since_ns) present.insert(id);
    }
  }
  stats_.containers = ids.size();
  stats_.gone = ids.size() - present.size();
}

std::vector<std::string> NameResolver::take_problems() {
  const std::lock_guard lock(mutex_);
  return std::exchange(problems_, {});
}

NameStats NameResolver::stats() const {
  const std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace flightrec::container::names
