#pragma once
// The eBPF traffic backend: BPF programs count payload bytes per process where tasks send and
// receive, and packets per socket owner where they cross a device or reach a socket; traffic
// without a known owner is counted as unattributed. Needs root (CAP_BPF, CAP_PERFMON and
// CAP_NET_ADMIN), kernel BTF, the sock_send_length/sock_recv_length tracepoints (Linux 6.3+) and
// a cgroup v2 mount. See docs/NETWORK.md.
#include <filesystem>
#include <memory>
#include <string>

#include "flightrec/common/result.h"
#include "flightrec/network/traffic_backend.h"

namespace flightrec::network {

// Loads and attaches the programs. The error says why when they cannot run here (built without
// eBPF, not permitted, kernel too old, no cgroup v2 mount): the caller falls back to sock_diag. The
// programs stay attached for the backend's lifetime. The socket programs attach to the cgroup v2
// hierarchy at `cgroupfs` (or `<cgroupfs>/unified`,
// --path.cgroupfs), falling back to the first cgroup2 mount of /proc/self/mountinfo.
Result<std::unique_ptr<TrafficBackend>> make_ebpf_backend(const std::filesystem::path& cgroupfs);

}  // namespace flightrec::network
