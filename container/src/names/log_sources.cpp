#include "log_sources.h"

#include "flightrec/container/names/kubernetes_names.h"

namespace flightrec::container::names::detail {
namespace {

std::string entry_problem(const std::filesystem::path& dir, std::string_view name,
                          std::string_view why) {
  return (dir / std::string(name)).string() + ": " + std::string(why);
}

// The names of the link `name`, with the pod's uid from its target when the target agrees
// with the name on the rest (a link whose target says otherwise is named by its name alone).
Result<ContainerNames> read_container_link(const std::filesystem::path& dir,
                                           std::string_view name) {
  auto names = parse_container_log_name(name);
  if (!names) return names;
  const auto target = read_link(dir / std::string(name));
  if (!target) return names;
  const auto pod = parse_pod_log_target(*target);
  if (pod && pod->pod_namespace == names->pod_namespace && pod->pod == names->pod &&
      pod->container == names->container) {
    names->pod_uid = pod->pod_uid;
  }
  return names;
}

}  // namespace

Result<Findings> ContainerLogSource::scan(RefreshContext& context, const FileStamp&) {
  auto entries = list_directory(path_);
  if (!entries) return Error{std::move(entries).error()};
  std::map<std::string, ContainerNames, std::less<>> known;
  Findings found;
  for (const std::string& name : *entries) {
    if (found.size() == context.settings.max_containers) {
      report_limit(context);
      break;
    }
    auto names = [&]() -> Result<ContainerNames> {
      if (const auto cached = known_.find(name); cached != known_.end()) return cached->second;
      return read_container_link(path_, name);
    }();
    if (!names) {
      report(context, entry_problem(path_, name, names.error()));
      continue;
    }
    known.emplace(name, *names);
    std::string id = names->id;
    found.insert_or_assign(std::move(id), std::move(*names));
  }
  known_ = std::move(known);
  return found;
}

Result<Findings> PodLogSource::scan(RefreshContext& context, const FileStamp&) {
  auto entries = list_directory(path_);
  if (!entries) return Error{std::move(entries).error()};
  Findings found;
  for (const std::string& name : *entries) {
    if (found.size() == context.settings.max_containers) {
      report_limit(context);
      break;
    }
    auto pod = parse_pod_log_dir(name);
    if (!pod) {
      report(context, entry_problem(path_, name, pod.error()));
      continue;
    }
    std::string uid = pod->pod_uid;
    found.insert_or_assign(std::move(uid), std::move(*pod));
  }
  return found;
}

}  // namespace flightrec::container::names::detail
