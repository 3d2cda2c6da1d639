#pragma once
// The process's limit on open files. The process and container tiers keep thousands of files open
// (three per process, a dozen or more per container) and the kernel's default soft limit is 1024,
// so each raises it to the hard limit before it opens them: an unprivileged process may, and a
// hard limit the operator set stays the bound.
#include <cstddef>

namespace flightrec {

// Raises the soft RLIMIT_NOFILE to the hard limit (when the hard limit is finite) and returns the
// soft limit now in force; 0 when it cannot be read.
size_t raise_open_file_limit() noexcept;

}  // namespace flightrec
