// parse_pid_status on arbitrary bytes: it must never crash, a failed parse must name the line at
// fault, and a successful one may only hold fields whose keys the input spelled out, with sizes
// in whole KiB and a Name of one line.
// Seed corpus: tests/fixtures/procs-tier/*/status.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "flightrec/process/pid_status.h"
#include "fuzz_check.h"

namespace process = flightrec::process;

namespace {

bool mentions(std::string_view bytes, std::string_view key) {
  return bytes.find(key) != std::string_view::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes = flightrec::fuzz::as_text(data, size);
  const auto parsed = process::parse_pid_status(bytes);
  if (!parsed.ok() && parsed.error().empty()) __builtin_trap();
  if (!parsed.ok()) {
    if (!parsed.error().starts_with("line ")) __builtin_trap();
    return 0;
  }
  const process::PidStatus& status = *parsed;
  if (status.name.size() > size || status.name.find('\n') != std::string::npos) __builtin_trap();
  if (!status.name.empty() && !mentions(bytes, "Name:")) __builtin_trap();
  if (status.uid_real.has_value() != status.uid_effective.has_value()) __builtin_trap();
  if (status.uid_real && !mentions(bytes, "Uid:")) __builtin_trap();
  if (status.vm_rss_bytes && (!mentions(bytes, "VmRSS:") || *status.vm_rss_bytes % 1024 != 0)) {
    __builtin_trap();
  }
  if (status.vm_size_bytes && (!mentions(bytes, "VmSize:") || *status.vm_size_bytes % 1024 != 0)) {
    __builtin_trap();
  }
  if (status.threads && !mentions(bytes, "Threads:")) __builtin_trap();
  return 0;
}
