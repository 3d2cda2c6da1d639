#include "flightrec/config/detail/map_keys.h"

#include <map>

#include "flightrec/config/detail/key_tree.h"
#include "flightrec/config/detail/text.h"

namespace flightrec::config::detail {

void for_each_key(const YAML::Node& map, std::string_view path, const ReportError& report,
                  const std::function<void(const MapKey&)>& visit) {
  std::map<std::string, int, std::less<>> first_line;  // names seen in this map
  for (const auto& pair : map) {
    const YAML::Node& key = pair.first;
    if (!key.IsScalar()) {
      report(key.Mark(), std::string(path), "a key must be a plain name, got " + describe(key));
      continue;
    }
    const std::string& name = key.Scalar();
    std::string key_path = join_path(path, name);
    const auto [seen, inserted] = first_line.emplace(name, key.Mark().line + 1);
    if (!inserted) {
      report(key.Mark(), key_path,
             "duplicate key (first written on line " + std::to_string(seen->second) + ")");
      continue;
    }
    visit({name, std::move(key_path), key, pair.second});
  }
}

std::string unknown_name(std::string_view what, const std::optional<std::string>& hint,
                         const std::vector<std::string_view>& known) {
  if (hint) return std::string(what) + "; " + *hint;
  return std::string(what) + " (known here: " + join(known) + ")";
}

}  // namespace flightrec::config::detail
