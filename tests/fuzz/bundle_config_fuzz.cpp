// Feeds arbitrary bytes to parse_bundle_config (containerd's OCI config.json, of which only the
// annotations are read): it must never crash, hang or throw; a failure says why; the id, which
// the file does not hold, stays empty.
// Seed corpus: tests/fixtures/container_names/containerd/run/containerd/.../k8s.io/*/.
#include <cstddef>
#include <cstdint>

#include "flightrec/container/names/runtime_state.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::container::names;
  const auto names = parse_bundle_config(flightrec::fuzz::as_text(data, size));
  if (!names) {
    if (names.error().empty()) __builtin_trap();
    return 0;
  }
  if (!names->id.empty()) __builtin_trap();
  return 0;
}
