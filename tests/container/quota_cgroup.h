#pragma once
// A cgroup with a CFS quota and a CPU burner in it, for the tests and the benchmark that need the
// kernel to throttle something: made under the cpu controller's hierarchy (v1, as on this
// project's CI host, or v2), removed with its burner whatever happens.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

namespace flightrec::testing {

struct CpuHierarchy {
  std::filesystem::path root;
  bool v2 = false;
};

// The v1 hierarchy that has the cpu controller, else the v2 tree if it lists it.
std::optional<CpuHierarchy> find_cpu_hierarchy();

class QuotaCgroup {
 public:
  // flightrec-throttle-<pid>-<name> with `quota_us` per `period_us`; error() says what failed.
  QuotaCgroup(const CpuHierarchy& hierarchy, const std::string& name, int64_t quota_us,
              int64_t period_us);
  QuotaCgroup(const QuotaCgroup&) = delete;
  QuotaCgroup& operator=(const QuotaCgroup&) = delete;
  // Kills and reaps the burner if it still runs, then removes the cgroup.
  ~QuotaCgroup();

  [[nodiscard]] const std::string& error() const noexcept { return error_; }
  [[nodiscard]] bool v2() const noexcept { return v2_; }
  // Its directory's inode number: the id the kernel's cgroup has.
  [[nodiscard]] uint64_t id() const;
  // cpu.stat's nr_throttled, and its throttled time in ns (throttled_usec on v2, throttled_time
  // on v1).
  [[nodiscard]] std::pair<uint64_t, int64_t> throttled() const;

  // Where a burner thread notes the stretches of wall time it did not run (more than 1 ms
  // between two readings of CLOCK_MONOTONIC). Put in shared memory to see the child's.
  struct Gaps {
    int64_t last_ns = 0;  // its last reading, when it stopped spinning
    int count = 0;
    struct {
      int64_t from_ns;
      int64_t to_ns;
    } gap[4096];
  };
  // Starts a child of `threads` threads that spin for `run_ns` of wall time in this cgroup (on
  // `cpu` only, when not -1), the first noting its gaps into `gaps` when not null. False when it
  // could not be started or moved in.
  bool start_burner(int threads, int64_t run_ns, Gaps* gaps = nullptr, int cpu = -1);
  // Waits for the burner to end; true when it exited by itself with status 0.
  bool wait_burner();

 private:
  std::filesystem::path path_;
  bool v2_ = false;
  bool made_ = false;
  pid_t burner_ = 0;
  std::string error_;
};

}  // namespace flightrec::testing
