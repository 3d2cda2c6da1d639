// containers/storage's containers.json (and volatile-containers.json): one array for every
// container of one store, rewritten whole (write and rename) on each change.
#include <string>

#include "flightrec/common/printable.h"
#include "flightrec/container/names/kubernetes_names.h"
#include "flightrec/container/names/runtime_state.h"
#include "json_document.h"

namespace flightrec::container::names {
namespace {

using detail::Json;

// The first of the entry's names ("" when it has none).
Result<std::string> first_name(const Json& entry, const std::string& path) {
  const Json* names = detail::member(entry, "names");
  if (names == nullptr) return std::string();
  if (!names->is_array()) return detail::wrong_type(path + "names", "an array", *names);
  if (names->empty()) return std::string();
  const Json& first = names->front();
  if (!first.is_string()) return detail::wrong_type(path + "names[0]", "a string", first);
  return first.get<std::string>();
}

// "image-name" from the entry's metadata: a JSON document of its own, kept in a string, whose
// shape is the runtime's (Podman's and CRI-O's both have image-name).
Result<std::string> image_name(const Json& entry, const std::string& path) {
  const Json* metadata = detail::member(entry, "metadata");
  if (metadata == nullptr) return std::string();
  if (!metadata->is_string()) return detail::wrong_type(path + "metadata", "a string", *metadata);
  const auto document = detail::parse_json(metadata->get_ref<const std::string&>());
  if (!document) return Error{path + "metadata: " + document.error()};
  if (!document->is_object()) {
    return detail::wrong_type(path + "metadata", "a JSON object", *document);
  }
  return detail::optional_string(*document, path + "metadata.", "image-name");
}

Result<ContainerNames> read_entry(const Json& entry, const std::string& path) {
  if (!entry.is_object()) return detail::wrong_type(path, "an object", entry);
  auto id = detail::optional_string(entry, path + ".", "id");
  if (!id) return Error{std::move(id).error()};
  if (!is_container_id(*id)) {
    return Error{path + ".id: " + quote_for_error(*id, {.max_bytes = 80}) +
                 " is not 64 lowercase hex digits"};
  }
  auto name = first_name(entry, path + ".");
  if (!name) return Error{std::move(name).error()};
  auto image = image_name(entry, path + ".");
  if (!image) return Error{std::move(image).error()};
  // CRI-O names its containers as dockershim did; Podman's names are the user's.
  auto kubelet = parse_kubelet_container_name(*name);
  ContainerNames names = kubelet ? std::move(*kubelet) : ContainerNames{};
  names.id = std::move(*id);
  names.name = std::move(*name);
  names.image = std::move(*image);
  return names;
}

}  // namespace

Result<std::vector<ContainerNames>> parse_storage_containers(std::string_view text) {
  auto document = detail::parse_json(text);
  if (!document) return Error{document.error()};
  if (!document->is_array()) return detail::wrong_type("document", "an array", *document);
  std::vector<ContainerNames> out;
  out.reserve(document->size());
  for (size_t i = 0; i < document->size(); ++i) {
    auto names = read_entry((*document)[i], "[" + std::to_string(i) + "]");
    if (!names) return Error{std::move(names).error()};
    out.push_back(std::move(*names));
  }
  return out;
}

}  // namespace flightrec::container::names
