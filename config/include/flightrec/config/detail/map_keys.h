#pragma once
// The checks every YAML map of the config file gets, written once for the key table's sections
// (loader.cpp) and the rule sections (trigger_list.cpp): a key is a plain name, written once, and
// an unknown one is named with a did-you-mean or with the names known there. The messages:
//   flightrec.yaml:2: sampler: a key must be a plain name, got a list
//   flightrec.yaml:3: triggers[0].op: duplicate key (first written on line 2)
//   flightrec.yaml:2: sampler.rat: unknown key; did you mean "sampler.rate"?
//   flightrec.yaml:2: sampler.frequency: unknown key (known here: rate, process_rate)
#include <yaml-cpp/yaml.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flightrec::config::detail {

// Receives one error: where, the key path ("triggers[1].op") and the message.
using ReportError =
    std::function<void(const YAML::Mark&, const std::string& path, const std::string& message)>;

struct MapKey {
  const std::string& name;
  std::string path;  // the section's path and the name: "sampler.rate", "triggers[0].op"
  const YAML::Node& key;
  const YAML::Node& value;
};

// Calls `visit` for each key of the map written at `path` that is a plain name seen for the
// first time; reports every other key, and the duplicate with the line of the first.
void for_each_key(const YAML::Node& map, std::string_view path, const ReportError& report,
                  const std::function<void(const MapKey&)>& visit);

// `what` ("unknown key", "unknown section") with the hint, or with the names known here.
[[nodiscard]] std::string unknown_name(std::string_view what,
                                       const std::optional<std::string>& hint,
                                       const std::vector<std::string_view>& known);

}  // namespace flightrec::config::detail
