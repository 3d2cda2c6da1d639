#include "role_rules.h"

#include <yaml-cpp/yaml.h>

#include <vector>

#include "flightrec/config/detail/document_scan.h"
#include "flightrec/config/detail/key_tree.h"
#include "flightrec/config/detail/text.h"

namespace flightrec::config {

std::string_view role_name(Role role) {
  for (size_t i = 0; i < kRoles.size(); ++i) {
    if (kRoles.at(i) == role) return kRoleNames.at(i);
  }
  return "?";
}

std::optional<Role> parse_role(std::string_view name) {
  for (size_t i = 0; i < kRoles.size(); ++i) {
    if (kRoleNames.at(i) == name) return kRoles.at(i);
  }
  return std::nullopt;
}

std::string roles_text(RoleSet roles) {
  std::string out;
  for (Role role : kRoles) {
    if (!has_role(roles, role)) continue;
    if (!out.empty()) out += ", ";
    out += role_name(role);
  }
  return "[" + out + "]";
}

namespace detail {
namespace {

const std::string& allowed_roles() {
  static const std::string text = join(kRoleNames);
  return text;
}

std::string not_a_role(std::string_view name, const std::string& allowed) {
  std::string message = quote(name) + " is not a role (allowed: " + allowed + ")";
  const std::vector<std::string_view> known(kRoleNames.begin(), kRoleNames.end());
  if (auto meant = closest_name(name, known))
    message += "; did you mean \"" + std::string(*meant) + "\"?";
  return message;
}

// One role or a list of them; `allowed` is what the key allows, for the messages.
std::optional<std::string> read_roles(const YAML::Node& node, const std::string& allowed,
                                      RoleSet& out) {
  std::vector<YAML::Node> items;
  if (node.IsScalar()) {
    items.push_back(node);
  } else if (node.IsSequence()) {
    for (const auto& item : node) items.push_back(item);
  } else {
    return "expected a list of roles (allowed: " + allowed + "), got " + describe(node);
  }
  RoleSet roles = kNoRoles;
  for (const YAML::Node& item : items) {
    if (!item.IsScalar()) return "expected a role name, got " + describe(item);
    const auto role = parse_role(item.Scalar());
    if (!role) return not_a_role(item.Scalar(), allowed);
    roles |= role_bit(*role);
  }
  out = roles;
  return std::nullopt;
}

}  // namespace

// The scan comes first: yaml-cpp alone can loop forever on malformed input (document_scan.h).
std::optional<YAML::Node> parse_flow(std::string_view text) {
  try {
    const std::string copy(text);
    const DocumentScan scan = scan_documents(copy);
    if (scan.stalled_at || scan.extra_content_at) return std::nullopt;
    return YAML::Load(copy);
  } catch (const YAML::Exception&) {
    return std::nullopt;
  }
}

std::string role_list_allowed() { return "auto, or a list of " + allowed_roles(); }

std::string user_roles_allowed() { return "user: a list of " + allowed_roles(); }

std::optional<std::string> read_role_list(std::string_view text, std::optional<RoleSet>& out) {
  if (text == "auto") {
    out.reset();
    return std::nullopt;
  }
  const auto node = parse_flow(text);
  if (!node) return quote(text) + " is not a list of roles (allowed: " + role_list_allowed() + ")";
  RoleSet roles = kNoRoles;
  if (auto error = read_roles(*node, role_list_allowed(), roles)) return error;
  out = roles;
  return std::nullopt;
}

std::optional<std::string> read_user_roles(std::string_view text,
                                           std::map<std::string, RoleSet>& out) {
  const auto node = parse_flow(text);
  if (!node || !node->IsMap()) {
    return "expected a map of user names to lists of roles (allowed: " + user_roles_allowed() +
           "), got " + (node ? describe(*node) : quote(text));
  }
  std::map<std::string, RoleSet> users;
  for (const auto& entry : *node) {
    if (!entry.first.IsScalar() || entry.first.Scalar().empty()) {
      return "a user name must be a non-empty string, got " + describe(entry.first);
    }
    const std::string& user = entry.first.Scalar();
    RoleSet roles = kNoRoles;
    if (auto error = read_roles(entry.second, allowed_roles(), roles)) {
      return "user " + quote(user) + ": " + *error;
    }
    if (!users.emplace(user, roles).second) return "user " + quote(user) + " is listed twice";
  }
  out = std::move(users);
  return std::nullopt;
}

std::string role_list_text(const std::optional<RoleSet>& roles) {
  return roles ? roles_text(*roles) : "auto";
}

std::string user_roles_text(const std::map<std::string, RoleSet>& roles) {
  // The emitter quotes a user name where YAML needs it, so the text reads back the same.
  YAML::Emitter out;
  out << YAML::Flow << YAML::BeginMap;
  for (const auto& [user, set] : roles) {
    out << YAML::Key << user << YAML::Value << YAML::BeginSeq;
    for (Role role : kRoles) {
      if (has_role(set, role)) out << std::string(role_name(role));
    }
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
  return out.c_str();
}

}  // namespace detail
}  // namespace flightrec::config
