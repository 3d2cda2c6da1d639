// The sources the sampler knows and their defaults, read from the embedded defaults file, so that
// declaring a source there is all the config layer needs: the key rows, "did you mean" hints and
// docs/CONFIG.md's table of source defaults all follow from this map.
#include <yaml-cpp/yaml.h>

#include <stdexcept>

#include "flightrec/config/config.h"
#include "flightrec/config/loader.h"
#include "flightrec/config/units.h"

namespace flightrec::config {
namespace {

[[noreturn]] void malformed(const std::string& name, const std::string& what) {
  throw std::logic_error("config/defaults.yaml: sources." + name + ": " + what);
}

const YAML::Node& required(const YAML::Node& node, const std::string& name, const char* key) {
  if (!node[key]) malformed(name, std::string("no `") + key + "`");
  return node;
}

SourceSettings read_source(const std::string& name, const YAML::Node& node) {
  if (!node.IsMap()) malformed(name, "not a map");
  SourceSettings settings;
  settings.enabled = required(node, name, "enabled")["enabled"].as<bool>();
  const std::optional<Duration> rate =
      parse_duration(required(node, name, "rate")["rate"].as<std::string>());
  if (!rate) malformed(name, "`rate` is not a duration");
  settings.rate = *rate;
  if (node["max_keys"]) {
    settings.keys = KeySelection{
        .filter = {.include = required(node, name, "include")["include"].as<std::string>(),
                   .exclude = required(node, name, "exclude")["exclude"].as<std::string>()},
        .max_keys = node["max_keys"].as<uint32_t>()};
  }
  return settings;
}

SourceSettingsMap read_sources_section(const YAML::Node& sources) {
  if (!sources.IsMap()) throw std::logic_error("config/defaults.yaml: no `sources:` map");
  SourceSettingsMap map;
  for (const auto& entry : sources) {
    const auto name = entry.first.as<std::string>();
    map.emplace(name, read_source(name, entry.second));
  }
  return map;
}

SourceSettingsMap read_default_sources() {
  try {
    return read_sources_section(YAML::Load(std::string(embedded_defaults_yaml()))["sources"]);
  } catch (const YAML::Exception& error) {
    throw std::logic_error("config/defaults.yaml: sources: " + error.msg);
  }
}

}  // namespace

const SourceSettingsMap& default_source_settings() {
  static const SourceSettingsMap defaults = read_default_sources();
  return defaults;
}

}  // namespace flightrec::config
