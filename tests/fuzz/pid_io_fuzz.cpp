// Feeds arbitrary bytes to parse_pid_io: it must never crash, hang or throw, a failed parse must
// say why, and a successful one must only hold values the input spelled out.
// Seed corpus: tests/fixtures/procs-tier/*/io.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "flightrec/process/pid_io.h"

namespace process = flightrec::process;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto io = process::parse_pid_io(bytes);
  if (!io.ok() && io.error().empty()) __builtin_trap();
  if (io.ok()) {
    if (io->read_bytes && bytes.find("read_bytes") == std::string_view::npos) {
      __builtin_trap();
    }
    if (io->write_bytes && bytes.find("write_bytes") == std::string_view::npos) {
      __builtin_trap();
    }
  }
  return 0;
}
