// Feeds arbitrary bytes as a cgroup path to ContainerMatcher (every built-in rule and services
// on): it never crashes; a runtime's id is 64 lower-case hex digits found in the path, a pod uid
// is hex and dashes, and a QoS class comes only with a pod.
// Seed corpus: container paths of tests/fixtures/cgroup/, one per layout.
#include <cstddef>
#include <cstdint>

#include "flightrec/container/cgroups/container_matcher.h"
#include "fuzz_check.h"

namespace {
bool is_hex(std::string_view text, bool dashes) {
  for (const char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (dashes && c == '-'))) return false;
  }
  return true;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::container;
  static const ContainerMatcher matcher = *ContainerMatcher::create({.systemd_services = true});
  const std::string_view path = flightrec::fuzz::as_text(data, size);
  const auto identity = matcher.match(path);
  if (!identity) return 0;
  if (identity->runtime == Runtime::systemd) {
    if (path.find(identity->id) == std::string_view::npos) __builtin_trap();
  } else if (identity->id.size() != 64 || !is_hex(identity->id, false) ||
             path.find(identity->id) == std::string_view::npos) {
    __builtin_trap();
  }
  if (identity->pod_uid.empty() != (identity->qos == QosClass::none)) __builtin_trap();
  if (!is_hex(identity->pod_uid, true)) __builtin_trap();
  return 0;
}
