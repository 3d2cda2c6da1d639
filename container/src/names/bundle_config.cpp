// containerd's OCI runtime spec of a running task, of which only the annotations are read.
#include "flightrec/container/names/runtime_state.h"
#include "json_document.h"

namespace flightrec::container::names {

Result<ContainerNames> parse_bundle_config(std::string_view text) {
  using detail::Json;
  auto document = detail::parse_json(text);
  if (!document) return Error{document.error()};
  if (!document->is_object()) return detail::wrong_type("document", "an object", *document);
  ContainerNames names;
  const Json* annotations = detail::member(*document, "annotations");
  if (annotations == nullptr) return names;  // not a container the CRI plugin made
  if (!annotations->is_object()) {
    return detail::wrong_type("annotations", "an object", *annotations);
  }
  struct Field {
    const char* annotation;
    std::string ContainerNames::*field;
  };
  // A sandbox has no container-name nor image-name: its container stays "".
  static constexpr Field kFields[] = {
      {"io.kubernetes.cri.sandbox-namespace", &ContainerNames::pod_namespace},
      {"io.kubernetes.cri.sandbox-name", &ContainerNames::pod},
      {"io.kubernetes.cri.sandbox-uid", &ContainerNames::pod_uid},
      {"io.kubernetes.cri.container-name", &ContainerNames::container},
      {"io.kubernetes.cri.image-name", &ContainerNames::image},
  };
  for (const Field& field : kFields) {
    auto value = detail::optional_string(*annotations, "annotations.", field.annotation);
    if (!value) return Error{std::move(value).error()};
    names.*field.field = std::move(*value);
  }
  return names;
}

}  // namespace flightrec::container::names
