#include "flightrec/config/detail/key_tree.h"

#include <algorithm>

#include "flightrec/common/closest_name.h"
#include "flightrec/config/schema.h"
#include "trigger_list.h"

namespace flightrec::config::detail {
namespace {

std::string_view last_segment(std::string_view path) {
  size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

// Every key path and every section path, in table order, without repeats.
std::vector<std::string> all_paths() {
  std::vector<std::string> paths;
  for (const KeySpec& key : schema()) {
    std::string_view path = key.path;
    for (size_t dot = path.find('.'); dot != std::string_view::npos;
         dot = path.find('.', dot + 1)) {
      std::string section(path.substr(0, dot));
      if (std::find(paths.begin(), paths.end(), section) == paths.end()) paths.push_back(section);
    }
    paths.emplace_back(path);
  }
  return paths;
}

std::string did_you_mean(std::string_view path) {
  return "did you mean \"" + std::string(path) + "\"?";
}

}  // namespace

std::string join_path(std::string_view prefix, std::string_view name) {
  if (prefix.empty()) return std::string(name);
  return std::string(prefix) + "." + std::string(name);
}

bool is_section(std::string_view path) {
  if (path.empty()) return true;
  return std::any_of(schema().begin(), schema().end(), [&](const KeySpec& key) {
    return key.path.size() > path.size() && key.path.starts_with(path) &&
           key.path[path.size()] == '.';
  });
}

std::vector<std::string_view> children(std::string_view section) {
  std::vector<std::string_view> names;
  size_t skip = section.empty() ? 0 : section.size() + 1;
  for (const KeySpec& key : schema()) {
    if (!section.empty() && !(key.path.starts_with(section) && key.path.size() > skip &&
                              key.path[section.size()] == '.')) {
      continue;
    }
    std::string_view rest = key.path.substr(skip);
    std::string_view name = rest.substr(0, rest.find('.'));
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  if (section.empty()) names.insert(names.end(), kRuleSections.begin(), kRuleSections.end());
  return names;
}

std::optional<std::string> suggest_among(std::string_view section, std::string_view name,
                                         const std::vector<std::string_view>& known) {
  if (auto best = closest_name(name, known)) return did_you_mean(join_path(section, *best));
  return std::nullopt;
}

std::optional<std::string> suggest(std::string_view section, std::string_view name) {
  std::string written = join_path(section, name);
  // `sampler.rate: 1ms` at the top level: the path is right but YAML keys do not split on dots.
  bool dotted = name.find('.') != std::string_view::npos;
  if (dotted && (find_key(written) != nullptr || is_section(written))) {
    return "keys are nested maps, not dotted names: write it as \"" +
           std::string(name.substr(0, name.find('.'))) + ":\" with the rest indented beneath";
  }
  // A typo of a key that belongs here.
  if (auto hint = suggest_among(section, name, children(section))) return hint;
  // The right name in the wrong section, e.g. "sampler.max_bytes" for "buffer.max_bytes".
  for (const std::string& path : all_paths()) {
    if (last_segment(path) == name) return did_you_mean(path);
  }
  return std::nullopt;
}

}  // namespace flightrec::config::detail
