// Feeds arbitrary bytes to parse_pid_cgroup and container_id_from_cgroup: they must never crash,
// hang or throw, a failed parse must say why, a path must come from the input, and a container
// id is either empty or 64 lower-case hex digits found in the input.
// Seed corpus: tests/fixtures/procs-tier/*/cgroup.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "flightrec/process/pid_cgroup.h"

namespace process = flightrec::process;

namespace {
void check_id(std::string_view id, std::string_view input) {
  if (id.empty()) return;
  if (id.size() != 64 || input.find(id) == std::string_view::npos) __builtin_trap();
  for (const char c : id) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) __builtin_trap();
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto cgroup = process::parse_pid_cgroup(bytes);
  if (!cgroup.ok() && cgroup.error().empty()) __builtin_trap();
  if (cgroup.ok()) {
    if (bytes.find(cgroup->path) == std::string_view::npos) __builtin_trap();
    check_id(cgroup->container_id, bytes);
  }
  check_id(process::container_id_from_cgroup(bytes), bytes);
  return 0;
}
