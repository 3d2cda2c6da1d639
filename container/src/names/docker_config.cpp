// Docker's config.v2.json, the container's record Docker rewrites whenever its state changes.
#include "flightrec/common/printable.h"
#include "flightrec/container/names/kubernetes_names.h"
#include "flightrec/container/names/runtime_state.h"
#include "json_document.h"

namespace flightrec::container::names {
namespace {

using detail::Json;

// The label of `labels` named `name`: "" when absent; an error when not a string.
Result<std::string> label(const Json* labels, const char* name) {
  if (labels == nullptr) return std::string();
  return detail::optional_string(*labels, "Config.Labels.", name);
}

// The Kubernetes names a kubelet through dockershim or cri-dockerd gave the container.
Status read_kubernetes_labels(const Json* labels, ContainerNames& names) {
  struct Field {
    const char* label;
    std::string ContainerNames::*field;
  };
  static constexpr Field kFields[] = {
      {"io.kubernetes.pod.namespace", &ContainerNames::pod_namespace},
      {"io.kubernetes.pod.name", &ContainerNames::pod},
      {"io.kubernetes.pod.uid", &ContainerNames::pod_uid},
      {"io.kubernetes.container.name", &ContainerNames::container},
  };
  for (const Field& field : kFields) {
    auto value = label(labels, field.label);
    if (!value) return Error{std::move(value).error()};
    names.*field.field = std::move(*value);
  }
  return {};
}

}  // namespace

Result<ContainerNames> parse_docker_config(std::string_view text) {
  auto document = detail::parse_json(text);
  if (!document) return Error{document.error()};
  const Json& root = *document;
  if (!root.is_object()) return detail::wrong_type("document", "an object", root);

  ContainerNames names;
  auto id = detail::optional_string(root, "", "ID");
  if (!id) return Error{std::move(id).error()};
  if (!is_container_id(*id)) {
    return Error{"ID: " + quote_for_error(*id, {.max_bytes = 80}) +
                 " is not 64 lowercase hex digits"};
  }
  names.id = std::move(*id);
  auto name = detail::optional_string(root, "", "Name");
  if (!name) return Error{std::move(name).error()};
  names.name = name->starts_with('/') ? name->substr(1) : std::move(*name);

  const Json* config = detail::member(root, "Config");
  if (config == nullptr) return Error{"Config: missing"};
  if (!config->is_object()) return detail::wrong_type("Config", "an object", *config);
  auto image = detail::optional_string(*config, "Config.", "Image");
  if (!image) return Error{std::move(image).error()};
  names.image = std::move(*image);
  const Json* labels = detail::member(*config, "Labels");
  if (labels != nullptr && !labels->is_object()) {
    return detail::wrong_type("Config.Labels", "an object", *labels);
  }
  if (auto read = read_kubernetes_labels(labels, names); !read) return Error{read.error()};

  // Labels first: they are what the kubelet set on purpose; the name is its older convention.
  if (names.pod.empty()) {
    if (auto kubelet = parse_kubelet_container_name(names.name)) {
      kubelet->id = std::move(names.id);
      kubelet->image = std::move(names.image);
      return kubelet;
    }
  }
  return names;
}

}  // namespace flightrec::container::names
