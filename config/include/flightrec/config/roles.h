#pragma once
// The access roles of the HTTP server (docs/SECURITY.md, "Roles"): what a user of `web.roles`, or a
// client without credentials (`web.anonymous_roles`), may do. A set of roles is a bit mask, so a
// whole policy compares and copies as plain values.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/common/enum_names.h"

namespace flightrec::config {

enum class Role : uint8_t {
  metrics = 1,     // /metrics and the landing page
  recordings = 2,  // /dump, /incidents and the viewer pages: command lines and history
  actions = 4,     // POST /-/trigger and POST /-/reload
};

using RoleSet = uint8_t;
inline constexpr RoleSet kNoRoles = 0;
inline constexpr RoleSet kAllRoles = 7;

[[nodiscard]] constexpr RoleSet role_bit(Role role) { return static_cast<RoleSet>(role); }
[[nodiscard]] constexpr bool has_role(RoleSet roles, Role role) {
  return (roles & role_bit(role)) != 0;
}

// Every role and its name, in the order docs and messages list them.
inline constexpr EnumName<Role> kRoleNames[] = {
    {Role::metrics, "metrics"}, {Role::recordings, "recordings"}, {Role::actions, "actions"}};
static_assert(names_are_distinct(kRoleNames));

[[nodiscard]] std::string_view role_name(Role role);
[[nodiscard]] std::optional<Role> parse_role(std::string_view name);
// As YAML writes a list: "[metrics, recordings]", "[]" for none.
[[nodiscard]] std::string roles_text(RoleSet roles);

}  // namespace flightrec::config
