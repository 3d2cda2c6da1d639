// Feeds arbitrary bytes to parse_docker_config (Docker's config.v2.json): it must never crash,
// hang or throw (deep nesting included); a failure says why; a success has a container id.
// Seed corpus: tests/fixtures/container_names/{docker,broken}/var/lib/docker/containers/*/.
#include <cstddef>
#include <cstdint>

#include "flightrec/container/names/kubernetes_names.h"
#include "flightrec/container/names/runtime_state.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::container::names;
  const auto names = parse_docker_config(flightrec::fuzz::as_text(data, size));
  if (!names) {
    if (names.error().empty()) __builtin_trap();
    return 0;
  }
  if (!is_container_id(names->id)) __builtin_trap();
  return 0;
}
