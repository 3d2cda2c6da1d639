#pragma once
// /proc/<pid>/status: "Key:\tvalue" lines. Only the keys below are read; a key that is absent
// (kernel threads and zombies have no Vm* lines) stays empty, a key with a malformed value is an
// error naming its line.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/common/result.h"

namespace flightrec::process {

struct PidStatus {
  std::string name;  // "Name:", with the kernel's escaping of '\n' and '\\'
  std::optional<uint32_t> uid_real;
  std::optional<uint32_t> uid_effective;
  // Exact resident set size; stat's rss field is a per-CPU-cached approximation on newer kernels.
  std::optional<uint64_t> vm_rss_bytes;
  std::optional<uint64_t> vm_size_bytes;
  std::optional<int64_t> threads;
};

Result<PidStatus> parse_pid_status(std::string_view bytes);

}  // namespace flightrec::process
