#pragma once
// Reading and spelling the two role keys (roles.h). Their values are YAML collections, which the
// loader hands over as flow text ("[metrics, actions]", "{alice: [metrics]}"), so a value read
// from a file and one spelled back by value_text go through the same parser.
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/common/result.h"
#include "flightrec/config/roles.h"

namespace YAML {
class Node;
}

namespace flightrec::config::detail {

// The one value `text` holds, or nullopt when it is not one well-formed YAML value (the collection
// keys' flow text).
[[nodiscard]] std::optional<YAML::Node> parse_flow(std::string_view text);

// Each returns the value, or why not (naming the bad role, the valid ones and, for a likely typo,
// the one meant).
// `web.anonymous_roles`: "auto" (nullopt), one role, or a list of roles.
[[nodiscard]] Result<std::optional<RoleSet>> read_role_list(std::string_view text);
// `web.roles`: a map of user names to a role or a list of roles.
[[nodiscard]] Result<std::map<std::string, RoleSet>> read_user_roles(std::string_view text);

// What each key allows, for the docs and the messages: "auto, or a list of metrics, ...".
[[nodiscard]] std::string role_list_allowed();
[[nodiscard]] std::string user_roles_allowed();

[[nodiscard]] std::string role_list_text(const std::optional<RoleSet>& roles);
[[nodiscard]] std::string user_roles_text(const std::map<std::string, RoleSet>& roles);

}  // namespace flightrec::config::detail
