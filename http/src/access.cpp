#include "flightrec/http/access.h"

#include "flightrec/config/listen_address.h"
#include "flightrec/http/web_config.h"

namespace flightrec::http {
namespace {

using config::Role;
using config::RoleSet;

std::string quoted_role(Role role) { return "'" + std::string(config::role_name(role)) + "'"; }

std::string anonymous_reason(const config::Config::Web& web, RoleSet roles) {
  if (web.anonymous_roles) {
    return "web.anonymous_roles gives anonymous clients " + config::roles_text(roles);
  }
  if (roles == config::kAllRoles) {
    return "anonymous clients of a loopback listen address have every role";
  }
  return "anonymous clients of a non-loopback listen address get only 'metrics'";
}

}  // namespace

AccessPolicy access_policy(const config::Config::Web& web) {
  AccessPolicy policy;
  policy.user_roles.insert(web.roles.begin(), web.roles.end());
  if (web.anonymous_roles) {
    policy.anonymous = *web.anonymous_roles;
  } else {
    // An address that does not parse never gets this far (the server refuses it); treated as
    // reachable from the network all the same.
    const auto address = config::parse_listen_address(web.listen_address);
    const bool loopback = address && config::is_loopback(*address);
    policy.anonymous = loopback ? config::kAllRoles : config::role_bit(Role::metrics);
  }
  policy.anonymous_reason = anonymous_reason(web, policy.anonymous);
  policy.open_health = web.open_health;
  return policy;
}

std::optional<Role> needed_role(Right right, const AccessPolicy& policy) {
  switch (right) {
    case Right::anyone:
      if (policy.open_health) return std::nullopt;
      return Role::metrics;
    case Right::read_metrics:
      return Role::metrics;
    case Right::read_history:
      return Role::recordings;
    case Right::capture:
      return Role::actions;
  }
  return Role::actions;  // not reached: the switch names every Right
}

std::optional<Refusal> check_access(const AccessPolicy& policy, Right right, std::string_view path,
                                    const std::string* user) {
  const auto role = needed_role(right, policy);
  if (!role) return std::nullopt;
  const std::string needs =
      "403 Forbidden: " + std::string(path) + " needs the " + quoted_role(*role) + " role; ";
  if (user == nullptr) {
    if (config::has_role(policy.anonymous, *role)) return std::nullopt;
    return Refusal{.status = 403,
                   .body = needs + policy.anonymous_reason +
                           " (set web.anonymous_roles, or configure basic_auth_users in "
                           "--web.config.file)\n"};
  }
  if (policy.user_roles.empty()) return std::nullopt;
  const auto found = policy.user_roles.find(*user);
  if (found != policy.user_roles.end() && config::has_role(found->second, *role)) {
    return std::nullopt;
  }
  const std::string has =
      found == policy.user_roles.end()
          ? "user \"" + *user + "\" is not in web.roles"
          : "user \"" + *user + "\" has " + config::roles_text(found->second) + " in web.roles";
  return Refusal{.status = 403, .body = needs + has + "\n"};
}

std::vector<std::string> unknown_role_users(const AccessPolicy& policy, const WebConfig& web) {
  std::vector<std::string> errors;
  if (!web.requires_auth()) return errors;
  for (const auto& [user, roles] : policy.user_roles) {
    if (!web.users.contains(user)) {
      errors.push_back("web.roles: user \"" + user +
                       "\" is not in the web config's basic_auth_users");
    }
  }
  return errors;
}

}  // namespace flightrec::http
