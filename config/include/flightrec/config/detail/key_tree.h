#pragma once
// The sections of the key table seen as a tree: "sources" is a section because
// "sources.stat.enabled" is a key. Used to walk a YAML document and to explain unknown keys.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flightrec::config::detail {

[[nodiscard]] std::string join_path(std::string_view prefix, std::string_view name);

// True for a proper prefix of some key path ("sources", "sources.netdev"); "" is the root.
[[nodiscard]] bool is_section(std::string_view path);

// Names directly under a section, in table order: children("sampler") = {"rate", "process_rate"}.
// The root also lists the rule sections outside the table ("triggers", "thresholds").
[[nodiscard]] std::vector<std::string_view> children(std::string_view section);

// `did you mean "section.best"?` for the name among `known` that `name` is likely a typo of.
[[nodiscard]] std::optional<std::string> suggest_among(std::string_view section,
                                                       std::string_view name,
                                                       const std::vector<std::string_view>& known);

// A hint for an unknown key `name` written inside `section`, e.g. `did you mean "sampler.rate"?`;
// nullopt when nothing is close enough to be a likely typo or a misplaced key.
[[nodiscard]] std::optional<std::string> suggest(std::string_view section, std::string_view name);

}  // namespace flightrec::config::detail
