#pragma once
// The loaded and attached BPF traffic programs (network/bpf/traffic.bpf.c): owns the skeleton,
// its maps and the links keeping the programs attached. Detaches everything when destroyed.
#include <bpf/libbpf.h>

#include <memory>
#include <string>
#include <vector>

#include "flightrec/common/fd.h"
#include "flightrec/common/result.h"

struct traffic_bpf;

namespace flightrec::network::detail {

class TrafficProgram {
 public:
  // Loads the programs and attaches them: tracepoints globally, cgroup programs to the cgroup v2
  // root at `cgroup_root`. The error names the program or step that failed.
  static Result<std::unique_ptr<TrafficProgram>> open(const std::string& cgroup_root);

  TrafficProgram(const TrafficProgram&) = delete;
  TrafficProgram& operator=(const TrafficProgram&) = delete;
  ~TrafficProgram();

  [[nodiscard]] int processes_fd() const noexcept;
  [[nodiscard]] int totals_fd() const noexcept;

 private:
  struct LinkDeleter {
    void operator()(bpf_link* link) const noexcept { bpf_link__destroy(link); }
  };

  TrafficProgram() = default;
  Status attach();

  traffic_bpf* skeleton_ = nullptr;
  Fd cgroup_;
  std::vector<std::unique_ptr<bpf_link, LinkDeleter>> links_;
};

// The mount point of the cgroup v2 hierarchy from /proc/self/mountinfo text; "" when none.
std::string find_cgroup2_mount(const std::string& mountinfo);

}  // namespace flightrec::network::detail
