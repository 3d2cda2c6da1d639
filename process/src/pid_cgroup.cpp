#include "flightrec/process/pid_cgroup.h"

#include <algorithm>
#include <array>

#include "procfs_lines.h"

namespace flightrec::process {
namespace {

constexpr size_t kContainerIdLength = 64;

bool is_container_id(std::string_view text) {
  return text.size() == kContainerIdLength && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// "docker-<id>.scope" and its containerd, CRI-O and Podman siblings. Their "-conmon-" scopes
// hold the container monitor, not the container, and fail the hex check.
std::string_view scope_container_id(std::string_view component) {
  constexpr std::string_view kSuffix = ".scope";
  constexpr std::array<std::string_view, 4> kPrefixes = {"docker-", "cri-containerd-", "crio-",
                                                         "libpod-"};
  if (!component.ends_with(kSuffix)) return {};
  component.remove_suffix(kSuffix.size());
  for (const std::string_view prefix : kPrefixes) {
    if (component.starts_with(prefix) && is_container_id(component.substr(prefix.size()))) {
      return component.substr(prefix.size());
    }
  }
  return {};
}

// The component before `end` (exclusive) in `path`, and where it starts.
std::string_view component_before(std::string_view path, size_t end, size_t& start) {
  if (end == 0) {
    start = 0;
    return {};
  }
  const size_t slash = path.rfind('/', end - 1);
  start = slash == std::string_view::npos ? 0 : slash + 1;
  return path.substr(start, end - start);
}

}  // namespace

std::string container_id_from_cgroup(std::string_view path) {
  const bool under_kubepods = path.find("/kubepods") != std::string_view::npos;
  size_t end = path.size();
  while (end > 0) {
    size_t start = 0;
    const std::string_view component = component_before(path, end, start);
    if (const std::string_view id = scope_container_id(component); !id.empty()) {
      return std::string(id);
    }
    if (is_container_id(component) && start > 0) {
      size_t parent_start = 0;
      const std::string_view parent = component_before(path, start - 1, parent_start);
      if (parent == "docker" || under_kubepods) return std::string(component);
    }
    if (start == 0) break;
    end = start - 1;
  }
  return {};
}

Result<PidCgroup> parse_pid_cgroup(std::string_view bytes) {
  PidCgroup out;
  bool have_v2 = false;
  detail::LineSplitter lines(bytes);
  std::string_view line;
  while (lines.next(line)) {
    if (line.empty()) continue;
    // A path may itself hold ':', so only the first two separate fields.
    const size_t first = line.find(':');
    const size_t second = first == std::string_view::npos ? first : line.find(':', first + 1);
    if (second == std::string_view::npos) {
      return Error{"line " + std::to_string(lines.line_number()) + ": '" + std::string(line) +
                   "' is not hierarchy:controllers:path"};
    }
    const std::string_view hierarchy = line.substr(0, first);
    const std::string_view controllers = line.substr(first + 1, second - first - 1);
    const std::string_view path = line.substr(second + 1);
    if (hierarchy == "0" && controllers.empty()) {
      out.path = std::string(path);
      have_v2 = true;
    } else if (controllers == "name=systemd" && !have_v2) {
      out.path = std::string(path);
    }
    if (out.container_id.empty()) out.container_id = container_id_from_cgroup(path);
  }
  // The chosen path's own id takes precedence over one found on another hierarchy's line.
  if (std::string from_path = container_id_from_cgroup(out.path); !from_path.empty()) {
    out.container_id = std::move(from_path);
  }
  return out;
}

}  // namespace flightrec::process
