#pragma once
// Access roles in front of every route (docs/SECURITY.md, "Roles"): the role a route's Right
// needs, the roles a request has (an authenticated user's from `web.roles`, a client without
// credentials' from `web.anonymous_roles`), and the 403 that names the setting to change.
// Router::dispatch asks check_access() once basic auth has said who is asking.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/config/config.h"
#include "flightrec/config/roles.h"
#include "flightrec/http/route.h"

namespace flightrec::http {

struct WebConfig;  // web_config.h

struct AccessPolicy {
  // Each user's roles (web.roles); empty: every authenticated user has every role.
  std::map<std::string, config::RoleSet, std::less<>> user_roles;
  // A client without credentials when no basic_auth_users are configured (with them: 401).
  config::RoleSet anonymous = config::kAllRoles;
  // Why `anonymous` is what it is, for the 403 message, e.g. "web.anonymous_roles gives
  // anonymous clients [metrics]".
  std::string anonymous_reason = "anonymous clients have every role";
  bool open_health = true;  // Right::anyone routes answer every client
};

// The policy the `web` section asks for, web.anonymous_roles' "auto" resolved against
// web.listen_address: every role on a loopback address, only metrics on any other.
[[nodiscard]] AccessPolicy access_policy(const config::Config::Web& web);

// The role a route needs; nullopt for the health endpoints while open_health holds.
[[nodiscard]] std::optional<config::Role> needed_role(Right right, const AccessPolicy& policy);

struct Refusal {
  int status = 403;
  std::string body;  // names the path, the role it needs and the setting that grants it
};

// Whether the request for `path` (a route needing `right`) may go on: nullopt if so. `user` is
// the authenticated user, or nullptr for a client without credentials on a server without
// basic_auth_users (one with them has answered 401 already).
[[nodiscard]] std::optional<Refusal> check_access(const AccessPolicy& policy, Right right,
                                                  std::string_view path, const std::string* user);

// One error per user web.roles names that the web config's basic_auth_users lack (a typo there
// would otherwise lock that user out silently); none when the web config names no users at all.
[[nodiscard]] std::vector<std::string> unknown_role_users(const AccessPolicy& policy,
                                                          const WebConfig& web);

}  // namespace flightrec::http
