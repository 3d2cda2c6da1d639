// The path of a cgroup's ancestor, from the cgroup's path and the ancestor's depth: the exit
// program reports the depth of the cgroup whose limit it found, not a second path, which would
// double an OOM victim's record.
#include "flightrec/process/process_exits.h"

namespace flightrec::process {

std::string cgroup_ancestor_path(std::string_view path, uint32_t level) {
  if (level == 0) return path.empty() ? "" : "/";
  size_t end = 0;  // where component `level` ends
  for (uint32_t component = 0; component < level; ++component) {
    const bool component_follows =
        end + 1 < path.size() && path[end] == '/' && path[end + 1] != '/';
    if (!component_follows) return "";
    end = path.find('/', end + 1);
    if (end == std::string_view::npos) end = path.size();
  }
  return std::string(path.substr(0, end));
}

}  // namespace flightrec::process
