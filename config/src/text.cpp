#include "flightrec/config/detail/text.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>  // the Node member definitions describe() needs

#include "flightrec/common/enum_names.h"
#include "flightrec/common/printable.h"

namespace flightrec::config::detail {
namespace {

// What a collection is called in "got <this>"; a scalar is named by its value, anything else
// (null, undefined) is "no value".
constexpr EnumName<YAML::NodeType::value> kCollectionNames[] = {
    {YAML::NodeType::Map, "a map"}, {YAML::NodeType::Sequence, "a list"}};
static_assert(names_are_distinct(kCollectionNames));

}  // namespace

std::string quote(std::string_view value) {
  return quote_for_error(value, {.keep_non_ascii = true, .named_escapes = true, .max_bytes = 80});
}

std::string yaml_error_text(const YAML::Exception& error) {
  if (const auto* deep = dynamic_cast<const YAML::DeepRecursion*>(&error)) {
    // yaml-cpp stops when a node would sit at depth() (its DepthGuard limit).
    return "YAML nesting depth limit exceeded: lists and maps nest at most " +
           std::to_string(deep->depth() - 1) + " levels deep";
  }
  return "YAML syntax error: " + error.msg;
}

std::string join(std::span<const std::string_view> words) {
  std::string out;
  for (std::string_view word : words) {
    if (!out.empty()) out += ", ";
    out += word;
  }
  return out;
}

std::string describe(const YAML::Node& node) {
  if (node.IsScalar()) return "the value " + quote(node.Scalar());
  const std::string_view collection = name_of(kCollectionNames, node.Type());
  return std::string(collection.empty() ? "no value" : collection);
}

}  // namespace flightrec::config::detail
