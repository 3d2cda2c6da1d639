// What each rule type means: parsing and checking a value, describing what is allowed, and
// spelling a stored value back out.
#include <charconv>

#include "alert_match_rules.h"
#include "flightrec/common/regex.h"
#include "flightrec/config/detail/text.h"
#include "flightrec/config/listen_address.h"
#include "flightrec/config/schema.h"
#include "flightrec/config/units.h"
#include "role_rules.h"
#include "value_checks.h"

namespace flightrec::config {
namespace {

using detail::join;
using detail::out_of_range;
using detail::quote;

std::string range_text(const std::string& min, const std::string& max) { return min + ".." + max; }

std::optional<uint64_t> parse_whole_number(std::string_view text) {
  uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The YAML 1.2 core schema's booleans; "yes"/"on" are YAML 1.1 and read differently elsewhere.
std::optional<bool> parse_bool(std::string_view text) {
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  return std::nullopt;
}

struct Applier {
  const KeySpec& key;
  std::string_view scalar;
  Config& config;

  // Stores a value read by one of the readers that return it, or passes on why it is not one.
  template <typename T, typename Field>
  static Status store(Result<T> read, Field& field) {
    if (!read) return Error{std::move(read).error()};
    field = *std::move(read);
    return {};
  }

  Status operator()(const DurationRule& rule) const {
    return store(detail::read_duration(scalar, rule.min, rule.max, allowed_values(key)),
                 rule.field(config));
  }
  Status operator()(const SizeRule& rule) const {
    return store(detail::read_size(scalar, rule.min, rule.max, allowed_values(key)),
                 rule.field(config));
  }
  Status operator()(const BoolRule& rule) const {
    auto value = parse_bool(scalar);
    if (!value) return Error{quote(scalar) + " is not a boolean (allowed: true, false)"};
    rule.field(config) = *value;
    return {};
  }
  Status operator()(const CountRule& rule) const {
    std::string allowed = allowed_values(key);
    auto value = parse_whole_number(scalar);
    if (!value) return Error{quote(scalar) + " is not a whole number (allowed: " + allowed + ")"};
    if (*value < rule.min || *value > rule.max) return Error{out_of_range(scalar, allowed)};
    rule.field(config) = static_cast<uint32_t>(*value);
    return {};
  }
  Status operator()(const RegexRule& rule) const {
    if (scalar.size() > kMaxRegexLength) {
      return Error{quote(scalar) + " is too long (allowed: " + allowed_values(key) + ")"};
    }
    if (const auto compiled = Regex::compile(scalar); !compiled) {
      return Error{quote(scalar) + " is not a valid regex (" + compiled.error() +
                   "; allowed: " + allowed_values(key) + ")"};
    }
    rule.field(config) = std::string(scalar);
    return {};
  }
  Status operator()(const ListenAddressRule& rule) const {
    if (!parse_listen_address(scalar)) {
      return Error{quote(scalar) + " is not a listen address (allowed: " + allowed_values(key) +
                   "; examples: 127.0.0.1:9717, [::1]:9717, 0.0.0.0:9717)"};
    }
    rule.field(config) = std::string(scalar);
    return {};
  }
  Status operator()(const PathRule& rule) const {
    if (scalar.empty()) {
      return Error{"an empty path is not allowed (allowed: " + allowed_values(key) + ")"};
    }
    rule.field(config) = std::string(scalar);
    return {};
  }
  Status operator()(const PercentRule& rule) const {
    const auto value = parse_percent_ppm(scalar);
    if (!value) {
      return Error{quote(scalar) + " is not a percentage (examples: 10%, 2.5%; allowed: " +
                   allowed_values(key) + ")"};
    }
    const bool off = *value == 0 && rule.zero_is_off;
    if (!off && (*value < rule.min_ppm || *value > rule.max_ppm)) {
      return Error{out_of_range(scalar, allowed_values(key))};
    }
    rule.field(config) = static_cast<uint32_t>(*value);
    return {};
  }
  Status operator()(const ChoiceRule& rule) const {
    for (std::string_view choice : rule.choices) {
      if (scalar == choice) {
        rule.field(config) = std::string(choice);
        return {};
      }
    }
    return Error{quote(scalar) + " is not allowed (allowed: " + allowed_values(key) + ")"};
  }
  Status operator()(const RoleListRule& rule) const {
    return store(detail::read_role_list(scalar), rule.field(config));
  }
  Status operator()(const UserRolesRule& rule) const {
    return store(detail::read_user_roles(scalar), rule.field(config));
  }
  Status operator()(const AlertMatchRule& rule) const {
    return store(detail::read_alert_match(scalar), rule.field(config));
  }
};

}  // namespace

std::string_view type_name(const KeySpec& key) {
  struct Namer {
    std::string_view operator()(const DurationRule&) const { return "duration"; }
    std::string_view operator()(const SizeRule&) const { return "size"; }
    std::string_view operator()(const BoolRule&) const { return "bool"; }
    std::string_view operator()(const CountRule&) const { return "integer"; }
    std::string_view operator()(const RegexRule&) const { return "regex"; }
    std::string_view operator()(const ListenAddressRule&) const { return "host:port"; }
    std::string_view operator()(const PathRule&) const { return "path"; }
    std::string_view operator()(const PercentRule&) const { return "percent"; }
    std::string_view operator()(const ChoiceRule&) const { return "string"; }
    std::string_view operator()(const RoleListRule&) const { return "roles"; }
    std::string_view operator()(const UserRolesRule&) const { return "map of roles"; }
    std::string_view operator()(const AlertMatchRule&) const { return "list of matchers"; }
  };
  return std::visit(Namer{}, key.rule);
}

std::string allowed_values(const KeySpec& key) {
  struct Describer {
    std::string operator()(const DurationRule& rule) const {
      std::string range = range_text(format_duration(rule.min), format_duration(rule.max));
      if (rule.at_least_key.empty()) return range;
      return range + ", >= " + std::string(rule.at_least_key);
    }
    std::string operator()(const SizeRule& rule) const {
      return range_text(format_size(rule.min), format_size(rule.max));
    }
    std::string operator()(const BoolRule&) const { return "true, false"; }
    std::string operator()(const CountRule& rule) const {
      return range_text(std::to_string(rule.min), std::to_string(rule.max));
    }
    std::string operator()(const RegexRule&) const {
      return "RE2 regex (Prometheus' syntax), at most " + std::to_string(kMaxRegexLength) +
             " characters";
    }
    std::string operator()(const ListenAddressRule&) const {
      return "host:port or [ipv6]:port, port 0..65535";
    }
    std::string operator()(const PathRule&) const { return "a non-empty file system path"; }
    std::string operator()(const PercentRule& rule) const {
      std::string range =
          range_text(format_percent_ppm(rule.min_ppm), format_percent_ppm(rule.max_ppm));
      return rule.zero_is_off ? "0 (off) or " + range : range;
    }
    std::string operator()(const ChoiceRule& rule) const { return join(rule.choices); }
    std::string operator()(const RoleListRule&) const { return detail::role_list_allowed(); }
    std::string operator()(const UserRolesRule&) const { return detail::user_roles_allowed(); }
    std::string operator()(const AlertMatchRule&) const { return detail::alert_match_allowed(); }
  };
  return std::visit(Describer{}, key.rule);
}

std::string value_text(const KeySpec& key, const Config& config) {
  // Accessors take a mutable Config so one table serves reading and writing; read from a copy.
  Config copy = config;
  struct Reader {
    Config& config;
    std::string operator()(const DurationRule& rule) const {
      return format_duration(rule.field(config));
    }
    std::string operator()(const SizeRule& rule) const { return format_size(rule.field(config)); }
    std::string operator()(const BoolRule& rule) const {
      return rule.field(config) ? "true" : "false";
    }
    std::string operator()(const CountRule& rule) const {
      return std::to_string(rule.field(config));
    }
    std::string operator()(const RegexRule& rule) const { return rule.field(config); }
    std::string operator()(const ListenAddressRule& rule) const { return rule.field(config); }
    std::string operator()(const PathRule& rule) const { return rule.field(config); }
    std::string operator()(const PercentRule& rule) const {
      const uint32_t ppm = rule.field(config);
      return ppm == 0 && rule.zero_is_off ? "0" : format_percent_ppm(ppm);
    }
    std::string operator()(const ChoiceRule& rule) const { return rule.field(config); }
    std::string operator()(const RoleListRule& rule) const {
      return detail::role_list_text(rule.field(config));
    }
    std::string operator()(const UserRolesRule& rule) const {
      return detail::user_roles_text(rule.field(config));
    }
    std::string operator()(const AlertMatchRule& rule) const {
      return detail::alert_match_text(rule.field(config));
    }
  };
  return std::visit(Reader{copy}, key.rule);
}

bool takes_collection(const KeySpec& key) {
  return std::holds_alternative<RoleListRule>(key.rule) ||
         std::holds_alternative<UserRolesRule>(key.rule) ||
         std::holds_alternative<AlertMatchRule>(key.rule);
}

Status apply_value(const KeySpec& key, std::string_view scalar, Config& config) {
  return std::visit(Applier{key, scalar, config}, key.rule);
}

std::vector<RelationError> check_relations(const Config& config) {
  Config copy = config;
  std::vector<RelationError> errors;
  for (const KeySpec& key : schema()) {
    const auto* rule = std::get_if<DurationRule>(&key.rule);
    if (rule == nullptr || rule->at_least_key.empty()) continue;
    const KeySpec* other = find_key(rule->at_least_key);
    const auto* other_rule = other ? std::get_if<DurationRule>(&other->rule) : nullptr;
    if (other_rule == nullptr) continue;  // a table mistake; the schema test catches it
    Duration value = rule->field(copy);
    Duration floor = other_rule->field(copy);
    if (value < floor) {
      errors.push_back({key.path, other->path,
                        format_duration(value) + " must be >= " + std::string(other->path) + " (" +
                            format_duration(floor) + ")"});
    }
  }
  return errors;
}

}  // namespace flightrec::config
