// The embedded defaults, the shipped example and the key table agree with Config and each other.
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "flightrec/common/log.h"
#include "flightrec/config/loader.h"
#include "flightrec/config/schema.h"

using namespace flightrec::config;

namespace {

// Follows a dotted path through nested YAML maps; an invalid node when any step is missing.
// (Recursive because assigning to a YAML::Node overwrites the node it refers to.)
YAML::Node lookup(const YAML::Node& node, std::string_view path) {
  size_t dot = path.find('.');
  std::string name(path.substr(0, dot));
  if (!node.IsMap() || !node[name]) return YAML::Node(YAML::NodeType::Undefined);
  if (dot == std::string_view::npos) return node[name];
  return lookup(node[name], path.substr(dot + 1));
}

}  // namespace

TEST_CASE("the embedded defaults load to exactly Config{}", "[defaults]") {
  LoadResult result = load_from_string(embedded_defaults_yaml(), "defaults.yaml");
  INFO("errors: " << (result.errors.empty() ? "" : result.errors.front()));
  REQUIRE(result.ok());
  CHECK(*result.config == Config{});
}

TEST_CASE("the embedded defaults spell out every key, with comments", "[defaults]") {
  YAML::Node root = YAML::Load(std::string(embedded_defaults_yaml()));
  for (const KeySpec& key : schema()) {
    INFO("key: " << key.path);
    const YAML::Node value = lookup(root, key.path);
    // Role keys hold lists and maps; every other key a scalar.
    CHECK((value.IsScalar() || (takes_collection(key) && (value.IsMap() || value.IsSequence()))));
  }
  CHECK_THAT(std::string(embedded_defaults_yaml()), Catch::StartsWith("# flightrec configuration"));
}

TEST_CASE("Config equality notices a change in any field", "[defaults]") {
  // Guards the defaulted operator== the defaults test relies on: every key must take part in it.
  for (const KeySpec& key : schema()) {
    INFO("key: " << key.path);
    Config changed;
    // Each value differs from every default of its type: a bool is turned the other way.
    const char* value = nullptr;
    if (std::holds_alternative<BoolRule>(key.rule)) {
      value = value_text(key, Config{}) == "true" ? "false" : "true";
    }
    if (std::holds_alternative<DurationRule>(key.rule)) value = "7s";
    if (std::holds_alternative<SizeRule>(key.rule)) value = "2MiB";
    if (std::holds_alternative<CountRule>(key.rule)) value = "3";
    if (std::holds_alternative<RegexRule>(key.rule)) value = "^changed$";
    if (std::holds_alternative<ListenAddressRule>(key.rule)) value = "[::1]:1";
    if (const auto* choice = std::get_if<ChoiceRule>(&key.rule)) {
      value = choice->choices.back().data();  // never a default: defaults come first
    }
    if (std::holds_alternative<PathRule>(key.rule)) value = "/tmp/changed";
    if (std::holds_alternative<PercentRule>(key.rule)) value = "55.5%";
    if (std::holds_alternative<RoleListRule>(key.rule)) value = "[actions]";
    if (std::holds_alternative<UserRolesRule>(key.rule)) value = "{a: [metrics]}";
    if (std::holds_alternative<AlertMatchRule>(key.rule)) value = "['severity=\"critical\"']";
    REQUIRE(value != nullptr);
    REQUIRE(apply_value(key, value, changed).ok());
    CHECK_FALSE(changed == Config{});
  }
}

TEST_CASE("the example config loads and changes what it says it changes", "[defaults]") {
  LoadResult result = load_from_file(FLIGHTREC_CONFIG_EXAMPLES "/flightrec.yaml");
  INFO("errors: " << (result.errors.empty() ? "" : result.errors.front()));
  REQUIRE(result.ok());
  CHECK(result.config->sampler.rate == std::chrono::milliseconds(2));
  CHECK(result.config->buffer.max_bytes == 1ull << 30);
  CHECK_FALSE(result.config->sources.at("vmstat").enabled);
  CHECK(result.config->sources.at("netdev").keys->filter.exclude ==
        "^(lo|veth.*|docker\\d+|br-.*)$");
  CHECK(result.config->web.listen_address == "0.0.0.0:9717");
}

TEST_CASE("the key table is well formed", "[schema]") {
  std::set<std::string_view> paths;
  for (const KeySpec& key : schema()) {
    INFO("key: " << key.path);
    CHECK(paths.insert(key.path).second);  // no key twice
    CHECK_FALSE(key.help.empty());
    CHECK(find_key(key.path) == &key);
    // A section and a key cannot share a path: "a.b" cannot be both a value and a map.
    for (const KeySpec& other : schema()) {
      CHECK_FALSE(other.path.starts_with(std::string(key.path) + "."));
    }
    if (const auto* rule = std::get_if<DurationRule>(&key.rule)) {
      CHECK(rule->min <= rule->max);
      if (!rule->at_least_key.empty()) {
        const KeySpec* other = find_key(rule->at_least_key);
        REQUIRE(other != nullptr);
        CHECK(std::holds_alternative<DurationRule>(other->rule));
      }
    }
    // Every default is itself an allowed value.
    Config scratch;
    CHECK(apply_value(key, value_text(key, Config{}), scratch).ok());
  }
}

TEST_CASE("every log level the key table allows is one the logger accepts", "[schema]") {
  const auto& rule = std::get<ChoiceRule>(find_key("log.level")->rule);
  CHECK(rule.choices.size() == 4);
  for (std::string_view level : rule.choices) {
    INFO("level: " << level);
    CHECK(flightrec::log::parse_level(level).has_value());
  }
}
