#pragma once
// A small file read whole, with a bound: for state files other programs write (a container
// runtime's, a config), which a mistaken path (/dev/zero, a FIFO) or a runaway writer must not
// turn into a hang or an unbounded allocation.
#include <cstddef>
#include <filesystem>
#include <string>

#include "flightrec/common/result.h"

namespace flightrec {

// The bytes of the regular file at `path`, read until EOF (st_size is not trusted: a file being
// rewritten outdates it). Errors name the file: "<path>: not a regular file (a FIFO)", "<path>:
// larger than <max_bytes> bytes", "<path>: No such file or directory".
Result<std::string> read_bounded_file(const std::filesystem::path& path, size_t max_bytes);

}  // namespace flightrec
