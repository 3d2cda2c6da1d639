// Feeds arbitrary bytes to the parsers of the names the kubelet gives things on the node (log
// links, pod log directories, link targets, k8s_ runtime names): they must never crash, hang or
// throw; a failure says why; and what they accept is made of Kubernetes names: nonempty, no '_'
// (the separator), printable ASCII, and a container id of 64 lowercase hex digits.
// Seed corpus: the file names of tests/fixtures/container_names/*/var/log/.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "flightrec/container/names/kubernetes_names.h"
#include "fuzz_check.h"

namespace {

using flightrec::Result;
using flightrec::container::names::ContainerNames;
using flightrec::container::names::is_container_id;

void check_part(const std::string& part, bool required) {
  if (required && part.empty()) __builtin_trap();
  for (const char c : part) {
    if (c == '_' || c < 0x21 || c > 0x7e) __builtin_trap();
  }
}

void check(const Result<ContainerNames>& names, bool with_id, bool with_container) {
  if (!names) {
    if (names.error().empty()) __builtin_trap();
    return;
  }
  if (with_id != is_container_id(names->id)) __builtin_trap();
  check_part(names->pod_namespace, true);
  check_part(names->pod, true);
  check_part(names->container, with_container);
  check_part(names->pod_uid, false);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::container::names;
  const std::string_view text = flightrec::fuzz::as_text(data, size);
  check(parse_container_log_name(text), true, true);
  check(parse_pod_log_dir(text), false, false);
  check(parse_pod_log_target(text), false, true);
  check(parse_kubelet_container_name(text), false, true);
  const std::string uid = normalize_pod_uid(text);
  if (uid.size() != text.size() || uid.find('_') != std::string::npos) __builtin_trap();
  return 0;
}
