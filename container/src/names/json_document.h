#pragma once
// What the runtime state readers share: a JSON document parsed with a depth bound (a hostile or
// broken file cannot build a deep tree), and its fields read with errors that name the path to
// the field ("Config.Labels: expected an object, got array").
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "flightrec/common/result.h"

namespace flightrec::container::names::detail {

using Json = nlohmann::json;

// Deeper than any state file a runtime writes (an OCI spec is about 6 levels).
inline constexpr int kMaxJsonDepth = 32;

Result<Json> parse_json(std::string_view text);

// The member `name` of `object`, or nullptr when it is missing or null.
const Json* member(const Json& object, const char* name);

// The string member `name` of `object`: "" when missing or null, an error naming
// `path` + name when it is anything but a string.
Result<std::string> optional_string(const Json& object, const std::string& path, const char* name);

// An error naming `path` and the type found instead of `wanted`.
Error wrong_type(const std::string& path, std::string_view wanted, const Json& found);

}  // namespace flightrec::container::names::detail
