#pragma once
// Real idle processes for the process-tier benchmarks: N forked children asleep in pause(), in one
// process group, killed and reaped when the object goes out of scope; they also die with the
// benchmark (PR_SET_PDEATHSIG) if it is killed.
#include <sys/types.h>

#include <vector>

namespace flightrec::bench {

class IdleChildren {
 public:
  // Throws std::runtime_error naming how many were forked when a fork fails (those are killed).
  explicit IdleChildren(long count);
  IdleChildren(const IdleChildren&) = delete;
  IdleChildren& operator=(const IdleChildren&) = delete;
  ~IdleChildren() { kill_all(); }

  [[nodiscard]] const std::vector<pid_t>& pids() const { return pids_; }

 private:
  void kill_all();

  pid_t group_ = 0;
  std::vector<pid_t> pids_;
};

// False, saying why on stderr, when RLIMIT_NPROC or kernel.pid_max leaves no room for `count`
// more processes.
bool process_limits_allow(long count);

}  // namespace flightrec::bench
