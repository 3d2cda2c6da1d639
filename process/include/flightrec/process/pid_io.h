#pragma once
// /proc/<pid>/io: "key: value" lines of the task's I/O accounting. Only read_bytes and
// write_bytes (bytes that reached the storage layer) are kept: rchar/wchar also count pipes,
// sockets and page-cache hits.
#include <cstdint>
#include <optional>
#include <string_view>

#include "flightrec/common/result.h"

namespace flightrec::process {

struct PidIo {
  // Empty when the key is absent (a kernel without CONFIG_TASK_IO_ACCOUNTING prints none).
  std::optional<uint64_t> read_bytes;
  std::optional<uint64_t> write_bytes;
  bool operator==(const PidIo&) const = default;
};

// A key whose value is not a decimal number is an error naming its line.
Result<PidIo> parse_pid_io(std::string_view bytes);

}  // namespace flightrec::process
