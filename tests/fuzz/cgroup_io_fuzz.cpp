// Feeds arbitrary bytes to io.stat's parser and, split at the first NUL into the two files, to
// v1's blkio.throttle parser: at most kMaxIoDevices devices, each value a count or kAbsent, and a
// failure says why on one line.
// Seed corpus: the io.stat and blkio.throttle files of tests/fixtures/cgroup/ (a blkio seed is
// the bytes file, a NUL, then the operations file).
#include <cstddef>
#include <cstdint>

#include "flightrec/container/cgroups/io_files.h"
#include "fuzz_check.h"

namespace {
void check_io(const flightrec::Result<flightrec::container::IoStats>& io) {
  flightrec::fuzz::check_error(io);
  if (!io) return;
  if (io->count > io->devices.size()) __builtin_trap();
  for (size_t i = 0; i < io->count; ++i) {
    const auto& device = io->devices[i];
    flightrec::fuzz::check_values({{device.read_bytes, device.write_bytes, device.read_ios,
                                    device.write_ios, device.discard_bytes, device.discard_ios}});
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::container;
  const std::string_view text = flightrec::fuzz::as_text(data, size);
  check_io(parse_io_stat(text));
  const size_t split = text.find('\0');
  const std::string_view bytes = text.substr(0, split);
  const std::string_view ios = split == std::string_view::npos ? "" : text.substr(split + 1);
  check_io(parse_blkio_throttle(bytes, ios));
  return 0;
}
