#pragma once
// /proc/<pid>/cgroup: one "hierarchy-id:controllers:path" line per hierarchy. A cgroup v2 host has
// the single line "0::/path"; a hybrid host adds v1 lines ("4:memory:/path"); a v1-only host has
// no "0::" line at all.
#include <string>
#include <string_view>

#include "flightrec/common/result.h"

namespace flightrec::process {

struct PidCgroup {
  // The v2 path; without a "0::" line the v1 "name=systemd" path, which names the same unit;
  // "" when neither is present.
  std::string path;
  // 64-hex container id from `path`, else from the first v1 line that yields one (with Docker's
  // cgroupfs driver on a hybrid host only the v1 lines name the container); "" when none does.
  std::string container_id;
  bool operator==(const PidCgroup&) const = default;
};

// A line without two ':' separators is an error naming its line.
Result<PidCgroup> parse_pid_cgroup(std::string_view bytes);

// The container id in a cgroup path, or "" when the path names no container. Recognises the
// systemd-driver scopes docker-<id>.scope, cri-containerd-<id>.scope, crio-<id>.scope and
// libpod-<id>.scope, and the cgroupfs-driver directories /docker/<id> and /kubepods/.../<id>.
// The innermost match wins (systemd inside a container: /docker/<id>/init.scope).
std::string container_id_from_cgroup(std::string_view path);

}  // namespace flightrec::process
