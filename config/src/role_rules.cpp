#include "role_rules.h"

#include <yaml-cpp/yaml.h>

#include <vector>

#include "flightrec/common/closest_name.h"
#include "flightrec/config/detail/document_scan.h"
#include "flightrec/config/detail/key_tree.h"
#include "flightrec/config/detail/text.h"

namespace flightrec::config {

std::string_view role_name(Role role) { return name_of(kRoleNames, role); }

std::optional<Role> parse_role(std::string_view name) { return value_named(kRoleNames, name); }

std::string roles_text(RoleSet roles) {
  std::string out;
  for (const auto& [role, name] : kRoleNames) {
    if (!has_role(roles, role)) continue;
    if (!out.empty()) out += ", ";
    out += name;
  }
  return "[" + out + "]";
}

namespace detail {
namespace {

const std::vector<std::string_view>& role_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> all;
    for (const auto& row : kRoleNames) all.push_back(row.name);
    return all;
  }();
  return names;
}

const std::string& allowed_roles() {
  static const std::string text = join(role_names());
  return text;
}

std::string not_a_role(std::string_view name, const std::string& allowed) {
  std::string message = quote(name) + " is not a role (allowed: " + allowed + ")";
  if (auto meant = closest_name(name, role_names()))
    message += "; did you mean \"" + std::string(*meant) + "\"?";
  return message;
}

// One role or a list of them; `allowed` is what the key allows, for the messages.
Result<RoleSet> read_roles(const YAML::Node& node, const std::string& allowed) {
  std::vector<YAML::Node> items;
  if (node.IsScalar()) {
    items.push_back(node);
  } else if (node.IsSequence()) {
    for (const auto& item : node) items.push_back(item);
  } else {
    return Error{"expected a list of roles (allowed: " + allowed + "), got " + describe(node)};
  }
  RoleSet roles = kNoRoles;
  for (const YAML::Node& item : items) {
    if (!item.IsScalar()) return Error{"expected a role name, got " + describe(item)};
    const auto role = parse_role(item.Scalar());
    if (!role) return Error{not_a_role(item.Scalar(), allowed)};
    roles |= role_bit(*role);
  }
  return roles;
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

Result<std::optional<RoleSet>> read_role_list(std::string_view text) {
  if (text == "auto") return std::optional<RoleSet>();
  const auto node = parse_flow(text);
  if (!node) {
    return Error{quote(text) + " is not a list of roles (allowed: " + role_list_allowed() + ")"};
  }
  const auto roles = read_roles(*node, role_list_allowed());
  if (!roles) return Error{roles.error()};
  return std::optional<RoleSet>(*roles);
}

Result<std::map<std::string, RoleSet>> read_user_roles(std::string_view text) {
  const auto node = parse_flow(text);
  if (!node || !node->IsMap()) {
    return Error{"expected a map of user names to lists of roles (allowed: " +
                 user_roles_allowed() + "), got " + (node ? describe(*node) : quote(text))};
  }
  std::map<std::string, RoleSet> users;
  for (const auto& entry : *node) {
    if (!entry.first.IsScalar() || entry.first.Scalar().empty()) {
      return Error{"a user name must be a non-empty string, got " + describe(entry.first)};
    }
    const std::string& user = entry.first.Scalar();
    const auto roles = read_roles(entry.second, allowed_roles());
    if (!roles) return Error{"user " + quote(user) + ": " + roles.error()};
    if (!users.emplace(user, *roles).second) {
      return Error{"user " + quote(user) + " is listed twice"};
    }
  }
  return users;
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
    for (const auto& [role, name] : kRoleNames) {
      if (has_role(set, role)) out << std::string(name);
    }
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
  return out.c_str();
}

}  // namespace detail
}  // namespace flightrec::config
