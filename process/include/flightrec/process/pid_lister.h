#pragma once
// Lists the PIDs under a procfs directory every tick without allocating: the directory stays open,
// is rewound with lseek and read with getdents64 into a buffer reused across ticks (opendir would
// allocate a DIR and its 32 KiB buffer on every listing).
#include <cstdint>
#include <filesystem>
#include <vector>

#include "flightrec/common/fd.h"

namespace flightrec::process {

class PidLister {
 public:
  // Throws std::system_error naming `procfs` when it cannot be opened.
  explicit PidLister(const std::filesystem::path& procfs);

  // Fills `out` with the PIDs of the numeric entries, ascending. Returns 0 or the errno of the
  // listing (then `out` holds what was read before the error).
  [[nodiscard]] int list(std::vector<int32_t>& out);

 private:
  Fd dir_;
  std::vector<char> buffer_;
};

}  // namespace flightrec::process
