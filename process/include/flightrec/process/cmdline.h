#pragma once
// /proc/<pid>/cmdline: the arguments, each ended by a NUL. Kernel threads and zombies have none.
#include <cstddef>
#include <string>
#include <string_view>

namespace flightrec::process {

// A command line can be megabytes long; nothing downstream needs more than this.
inline constexpr size_t kMaxCmdlineBytes = 4096;

struct Cmdline {
  std::string text;  // arguments joined with single spaces; empty when the kernel gives none
  bool truncated = false;
};

// Joins the NUL-separated arguments in `bytes` with spaces and drops trailing NULs. Keeps at most
// `max_bytes` bytes of the result (a multi-byte character may be cut; renderers cope with that).
Cmdline join_cmdline(std::string_view bytes, size_t max_bytes = kMaxCmdlineBytes);

}  // namespace flightrec::process
