// Feeds arbitrary bytes to the per-process parsers (stat, status, cmdline, btime): they must never
// crash, hang or throw, a failed parse must say why, and a successful one must stay within what
// the input could hold.
// Seed corpus: tests/fixtures/procs-*/*/{stat,status,cmdline}.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "flightrec/process/boot_time.h"
#include "flightrec/process/cmdline.h"
#include "flightrec/process/pid_stat.h"
#include "flightrec/process/pid_status.h"

namespace process = flightrec::process;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);

  const auto stat = process::parse_pid_stat(bytes);
  if (!stat.ok() && stat.error().empty()) __builtin_trap();
  if (stat.ok() && stat->comm.size() + 2 > size) __builtin_trap();

  const auto status = process::parse_pid_status(bytes);
  if (!status.ok() && status.error().empty()) __builtin_trap();
  if (status.ok() && status->name.size() > size) __builtin_trap();

  constexpr size_t kLimit = 64;
  const auto cmdline = process::join_cmdline(bytes, kLimit);
  if (cmdline.text.size() > kLimit || cmdline.text.find('\0') != std::string_view::npos) {
    __builtin_trap();
  }
  if (cmdline.truncated !=
      (cmdline.text.size() == kLimit && size > kLimit && bytes.find_last_not_of('\0') >= kLimit)) {
    __builtin_trap();
  }

  static_cast<void>(process::parse_boot_time(bytes));
  return 0;
}
