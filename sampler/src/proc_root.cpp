#include "flightrec/sampler/proc_root.h"

#include <unistd.h>

#include <array>
#include <string>

namespace flightrec::sampler {

// <procfs>/self names the reader's own PID only on the procfs of the reader's namespace.
Status check_own_procfs(const ProcRoot& root) {
  std::array<char, 32> self{};
  const std::string link = (root.procfs / "self").string();
  const ssize_t n = ::readlink(link.c_str(), self.data(), self.size() - 1);
  if (n > 0 && std::string(self.data(), static_cast<size_t>(n)) == std::to_string(::getpid())) {
    return {};
  }
  return Error{root.procfs.string() + " is not this process's own procfs"};
}

}  // namespace flightrec::sampler
