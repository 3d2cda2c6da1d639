#include "state_sources.h"

#include "flightrec/common/bounded_file.h"
#include "flightrec/container/names/kubernetes_names.h"

namespace flightrec::container::names::detail {

std::optional<ContainerNames> ContainerFileSource::read(RefreshContext& context,
                                                        const std::string& id) {
  const std::filesystem::path path = path_ / id / file_;
  const auto stamp = stamp_of(path);
  if (!stamp) {
    report(context, stamp.error());
    return std::nullopt;
  }
  // Not written yet (Docker makes the directory first), just written, or not right: come back
  // for it, as a rewrite in place does not change the directory this source watches.
  if (!stamp->exists || !stamp->settled) waiting_ = true;
  if (!stamp->exists) return std::nullopt;
  const auto last = reads_.find(id);
  if (last != reads_.end() && unchanged(last->second.stamp, *stamp)) {
    if (!last->second.names) waiting_ = true;
    return last->second.names;
  }

  Read fresh{.stamp = *stamp, .names = std::nullopt};
  ++context.stats.files_read;
  const auto text = read_bounded_file(path, context.settings.max_state_file_bytes);
  auto names = text ? parse_(*text) : Result<ContainerNames>(Error{text.error()});
  if (!names) {
    report(context, text ? path.string() + ": " + names.error() : names.error());
  } else if (names->id.empty() || names->id == id) {
    names->id = id;
    fresh.names = std::move(*names);
  } else {
    report(context, path.string() + ": its id " + names->id + " is not its directory's");
  }
  if (!fresh.names) waiting_ = true;
  reads_.insert_or_assign(id, fresh);
  return fresh.names;
}

Result<Findings> ContainerFileSource::scan(RefreshContext& context, const FileStamp&) {
  auto entries = list_directory(path_);
  if (!entries) return Error{std::move(entries).error()};
  waiting_ = false;
  Findings found;
  std::map<std::string, Read, std::less<>> listed;
  for (const std::string& id : *entries) {
    // Docker keeps nothing else there; containerd's namespace holds only bundles.
    if (!is_container_id(id)) continue;
    if (found.size() == context.settings.max_containers) {
      report_limit(context);
      break;
    }
    auto names = read(context, id);
    if (const auto last = reads_.find(id); last != reads_.end()) {
      listed.insert(reads_.extract(last));
    }
    if (names) found.insert_or_assign(id, std::move(*names));
  }
  reads_ = std::move(listed);  // the containers that left are forgotten (the table keeps them)
  return found;
}

Result<Findings> ContainerListSource::scan(RefreshContext& context, const FileStamp& stamp) {
  if (!stamp.exists) return Findings();  // no such store, or no container made there yet
  ++context.stats.files_read;
  const auto text = read_bounded_file(path_, context.settings.max_container_list_bytes);
  if (!text) return Error{text.error()};
  auto list = parse_storage_containers(*text);
  if (!list) return Error{path_.string() + ": " + list.error()};
  Findings found;
  for (auto& names : *list) {
    if (found.size() == context.settings.max_containers) {
      report_limit(context);
      break;
    }
    std::string id = names.id;
    found.insert_or_assign(std::move(id), std::move(names));
  }
  return found;
}

}  // namespace flightrec::container::names::detail
