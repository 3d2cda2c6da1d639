// The access-role keys of the `web` section: lists and maps of roles, their errors, and their
// round trip through value_text, which a reload relies on.
#include "flightrec/config/roles.h"

#include <catch2/catch.hpp>
#include <utility>

#include "flightrec/config/listen_address.h"
#include "flightrec/config/loader.h"
#include "flightrec/config/schema.h"

using namespace flightrec::config;

namespace {

Config loaded(const std::string& yaml) {
  LoadResult result = load_from_string(yaml, "flightrec.yaml");
  INFO("yaml:\n" << yaml);
  for (const auto& error : result.errors) INFO(error);
  REQUIRE(result.config.has_value());
  return *result.config;
}

std::string only_error(const std::string& yaml) {
  LoadResult result = load_from_string(yaml, "flightrec.yaml");
  INFO("yaml:\n" << yaml);
  REQUIRE(result.errors.size() == 1);
  return result.errors[0];
}

constexpr RoleSet kMetrics = role_bit(Role::metrics);
constexpr RoleSet kRecordings = role_bit(Role::recordings);
constexpr RoleSet kActions = role_bit(Role::actions);

}  // namespace

TEST_CASE("the role keys default to auto, no per-user roles and open health endpoints", "[roles]") {
  const Config config = loaded("");
  CHECK(config.web.roles.empty());
  CHECK_FALSE(config.web.anonymous_roles.has_value());
  CHECK(config.web.open_health);
}

TEST_CASE("web.roles maps users to lists of roles", "[roles]") {
  const Config config = loaded(
      "web:\n  roles:\n    scraper: [metrics]\n    oncall:\n      - metrics\n      - recordings\n"
      "    robot: actions\n    nobody: []\n");
  CHECK(config.web.roles == std::map<std::string, RoleSet>{{"scraper", kMetrics},
                                                           {"oncall", kMetrics | kRecordings},
                                                           {"robot", kActions},
                                                           {"nobody", kNoRoles}});
}

TEST_CASE("web.anonymous_roles is auto, one role or a list", "[roles]") {
  CHECK(loaded("web:\n  anonymous_roles: [metrics, actions]\n").web.anonymous_roles ==
        (kMetrics | kActions));
  CHECK(loaded("web:\n  anonymous_roles: recordings\n").web.anonymous_roles == kRecordings);
  CHECK(loaded("web:\n  anonymous_roles: []\n").web.anonymous_roles == kNoRoles);
  CHECK_FALSE(loaded("web:\n  anonymous_roles: auto\n").web.anonymous_roles.has_value());
  CHECK_FALSE(loaded("web:\n  open_health: false\n").web.open_health);
}

TEST_CASE("a bad role names the key, lists the roles and suggests the one meant", "[roles]") {
  CHECK(only_error("web:\n  anonymous_roles: [metrics, recording]\n") ==
        "flightrec.yaml:2: web.anonymous_roles: \"recording\" is not a role (allowed: auto, or a "
        "list of metrics, recordings, actions); did you mean \"recordings\"?");
  CHECK(only_error("web:\n  roles:\n    alice: [metrics, admin]\n") ==
        "flightrec.yaml:2: web.roles: user \"alice\": \"admin\" is not a role (allowed: metrics, "
        "recordings, actions)");
  CHECK(only_error("web:\n  roles: [metrics]\n") ==
        "flightrec.yaml:2: web.roles: expected a map of user names to lists of roles (allowed: "
        "user: a list of metrics, recordings, actions), got a list");
  CHECK(only_error("web:\n  roles:\n    alice: {metrics: true}\n") ==
        "flightrec.yaml:2: web.roles: user \"alice\": expected a list of roles (allowed: metrics, "
        "recordings, actions), got a map");
  CHECK(only_error("web:\n  anonymous_roles: {a: b}\n") ==
        "flightrec.yaml:2: web.anonymous_roles: expected a list of roles (allowed: auto, or a list "
        "of metrics, recordings, actions), got a map");
}

TEST_CASE("a misspelt role key gets a did-you-mean hint", "[roles][unknown]") {
  CHECK(only_error("web:\n  anonymous_role: [metrics]\n") ==
        "flightrec.yaml:2: web.anonymous_role: unknown key; did you mean \"web.anonymous_roles\"?");
  CHECK(only_error("web:\n  role:\n    alice: [metrics]\n") ==
        "flightrec.yaml:2: web.role: unknown key; did you mean \"web.roles\"?");
}

TEST_CASE("role values spell back as YAML that reads the same", "[roles]") {
  const Config config = loaded(
      "web:\n  roles: {\"a b\": [actions, metrics], 'yes': [], c: recordings}\n"
      "  anonymous_roles: [recordings, metrics]\n");
  for (std::string_view key : {"web.roles", "web.anonymous_roles"}) {
    INFO(key);
    const KeySpec* spec = find_key(key);
    REQUIRE(spec != nullptr);
    const std::string text = value_text(*spec, config);
    Config copy;
    CHECK(apply_value(*spec, text, copy).ok());
    CHECK(value_text(*spec, copy) == text);
  }
  Config copy;
  for (std::string_view key : {"web.roles", "web.anonymous_roles"}) {
    REQUIRE(apply_value(*find_key(key), value_text(*find_key(key), config), copy).ok());
  }
  CHECK(copy.web == config.web);
  CHECK(value_text(*find_key("web.anonymous_roles"), config) == "[metrics, recordings]");
  CHECK(value_text(*find_key("web.anonymous_roles"), Config{}) == "auto");
  CHECK(value_text(*find_key("web.roles"), Config{}) == "{}");
}

TEST_CASE("every role has one name, which reads back as that role", "[roles]") {
  for (const auto& [role, name] :
       {std::pair{Role::metrics, "metrics"}, std::pair{Role::recordings, "recordings"},
        std::pair{Role::actions, "actions"}}) {
    CHECK(role_name(role) == name);
    CHECK(parse_role(name) == role);
  }
  CHECK(roles_text(kAllRoles) == "[metrics, recordings, actions]");
  CHECK(roles_text(kNoRoles) == "[]");
  CHECK_FALSE(parse_role("Metrics"));
}

TEST_CASE("loopback listen addresses are 127.0.0.0/8, ::1 and localhost", "[roles]") {
  const auto loopback = [](std::string_view text) {
    const auto address = parse_listen_address(text);
    REQUIRE(address.has_value());
    return is_loopback(*address);
  };
  CHECK(loopback("127.0.0.1:9717"));
  CHECK(loopback("127.255.0.1:0"));
  CHECK(loopback("[::1]:9717"));
  CHECK(loopback("localhost:9717"));
  CHECK_FALSE(loopback("0.0.0.0:9717"));
  CHECK_FALSE(loopback("[::]:9717"));
  CHECK_FALSE(loopback("192.168.1.2:9717"));
  CHECK_FALSE(loopback("127.example.com:9717"));
  CHECK_FALSE(loopback("[::ffff:127.0.0.1]:9717"));
}
