#pragma once
// The key table: every config key, its type, allowed values and help text, in one place. It drives
// loading and validation (loader.cpp), unknown-key detection with "did you mean" hints, and the key
// table in docs/CONFIG.md (a test checks the docs contain render_key_table_markdown()).
//
// Adding a key: add its field to Config (config.h), one KeySpec row in src/schema_table.cpp, the
// key to config/defaults.yaml, then paste the new render_key_table_markdown() output into
// docs/CONFIG.md. A new section (e.g. "export") needs nothing more: sections are the path prefixes
// of the keys. The `sources.<name>.*` rows are generated, one set per source that the embedded
// defaults declare (default_source_settings()): a new source needs only its defaults there.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "flightrec/common/result.h"
#include "flightrec/config/config.h"

namespace flightrec::config {

// Each rule reaches its field through an accessor, so the table needs no knowledge of Config's
// nesting. A function object rather than a pointer: the generated source rows capture the source.
template <typename T>
using FieldAccessor = std::function<T&(Config&)>;

struct DurationRule {
  FieldAccessor<Duration> field;
  Duration min;
  Duration max;
  std::string_view at_least_key = {};  // another duration key this one must not be below
};

struct SizeRule {
  FieldAccessor<uint64_t> field;
  uint64_t min;
  uint64_t max;
};

struct BoolRule {
  FieldAccessor<bool> field;
};

struct CountRule {
  FieldAccessor<uint32_t> field;
  uint32_t min;
  uint32_t max;
};

// An RE2 regular expression (common/regex.h) that must compile; "" is allowed and means "no
// pattern".
struct RegexRule {
  FieldAccessor<std::string> field;
};

struct ListenAddressRule {
  FieldAccessor<std::string> field;
};

// A filesystem path; must not be empty.
struct PathRule {
  FieldAccessor<std::string> field;
};

// A share written as a percentage ("10%"), stored in millionths; `zero_is_off` also accepts "0"
// below `min` and means the feature is off.
struct PercentRule {
  FieldAccessor<uint32_t> field;
  uint32_t min_ppm;
  uint32_t max_ppm;
  bool zero_is_off = false;
};

struct ChoiceRule {
  FieldAccessor<std::string> field;
  std::span<const std::string_view> choices;
};

// Access roles (roles.h): "auto" (nullopt), one role or a list of them, written as a YAML list.
struct RoleListRule {
  FieldAccessor<std::optional<RoleSet>> field;
};

// A map of user names to access roles, written as a YAML map of lists.
struct UserRolesRule {
  FieldAccessor<std::map<std::string, RoleSet>> field;
};

// A list of label matcher sets in Alertmanager's syntax (alert_matchers.h), written as a YAML list
// of strings.
struct AlertMatchRule {
  FieldAccessor<std::vector<std::string>> field;
};

using KeyRule =
    std::variant<DurationRule, SizeRule, BoolRule, CountRule, RegexRule, ListenAddressRule,
                 PathRule, PercentRule, ChoiceRule, RoleListRule, UserRolesRule, AlertMatchRule>;

struct KeySpec {
  std::string_view path;  // dotted, e.g. "sampler.rate"
  KeyRule rule;
  std::string_view help;
  // For a generated row, the one row docs/CONFIG.md shows for all of its kind, e.g.
  // "sources.<name>.rate"; empty for a key documented by itself.
  std::string_view family = {};
};

// Longest accepted regex: RE2 compiles it into an automaton whose size grows with the pattern.
inline constexpr size_t kMaxRegexLength = 1024;

// Every key, in the order the docs and the defaults file list them.
[[nodiscard]] std::span<const KeySpec> schema();
[[nodiscard]] const KeySpec* find_key(std::string_view path);

// Rules whose values are YAML lists or maps: the loader hands them over as flow text.
[[nodiscard]] bool takes_collection(const KeySpec& key);

// Short type name for docs and messages: "duration", "size", "bool", "integer", "percent", ...
[[nodiscard]] std::string_view type_name(const KeySpec& key);
// What may be written, e.g. "100us..10s", "1..1024", "debug, info, warn, error".
[[nodiscard]] std::string allowed_values(const KeySpec& key);
// The key's value in `config`, spelled as it would be written in YAML (durations and sizes with
// units).
[[nodiscard]] std::string value_text(const KeySpec& key, const Config& config);

// Parses one scalar (for a rule that takes_collection, the value in YAML flow style) and stores it
// into `config`. On failure the message is without the key path, e.g. `"1xs" is not a duration
// (examples: 500us, 1ms, 2s)`, and `config` is unchanged.
[[nodiscard]] Status apply_value(const KeySpec& key, std::string_view scalar, Config& config);

// Checks rules between keys (DurationRule::at_least_key) once every key is applied. Each error
// names the constrained key, the key it depends on, and says why, e.g. "250ms must be >=
// sampler.rate (1s)".
struct RelationError {
  std::string_view key;
  std::string_view other_key;
  std::string message;
};
[[nodiscard]] std::vector<RelationError> check_relations(const Config& config);

// The markdown key table (header included) that docs/CONFIG.md must contain verbatim: one row per
// key, one per family of generated keys, then the table of every source's defaults.
[[nodiscard]] std::string render_key_table_markdown();

}  // namespace flightrec::config
