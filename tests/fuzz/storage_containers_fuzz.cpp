// Feeds arbitrary bytes to parse_storage_containers (containers/storage's containers.json, and
// the JSON document in each entry's metadata): it must never crash, hang or throw; a failure
// says why; every container it gives has an id.
// Seed corpus: tests/fixtures/container_names/*/var/lib/containers/storage/overlay-containers/.
#include <cstddef>
#include <cstdint>

#include "flightrec/container/names/kubernetes_names.h"
#include "flightrec/container/names/runtime_state.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::container::names;
  const auto list = parse_storage_containers(flightrec::fuzz::as_text(data, size));
  if (!list) {
    if (list.error().empty()) __builtin_trap();
    return 0;
  }
  for (const ContainerNames& names : *list) {
    if (!is_container_id(names.id)) __builtin_trap();
  }
  return 0;
}
