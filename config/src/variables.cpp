#include "flightrec/config/variables.h"

#include <cstdlib>

#include "flightrec/common/regex.h"
#include "identifier.h"

namespace flightrec::config {
namespace {

std::string reference(std::string_view name) { return "${" + std::string(name) + "}"; }

// The value of one reference, `inner` being what is between `${` and `}`, or why it has none.
Result<std::string> resolve(std::string_view inner, const Environment& env) {
  size_t end = 0;
  if (!inner.empty() && detail::is_identifier_start(inner[0])) {
    while (end < inner.size() && detail::is_identifier_char(inner[end])) ++end;
  }
  const std::string_view name = inner.substr(0, end);
  if (name.empty()) {
    return Error{reference(inner) +
                 ": expected a variable name (letters, digits, _; not a digit first)"};
  }
  const std::string_view rest = inner.substr(end);
  if (!rest.empty() && !rest.starts_with(":-")) {
    return Error{reference(inner) + ": expected } or :-default after the name " +
                 std::string(name)};
  }
  std::optional<std::string> value = env(name);
  if (value && !value->empty()) return *std::move(value);
  if (!rest.empty()) return std::string(rest.substr(2));
  return Error{reference(name) + (value ? " is empty" : " is not set") +
               " (set it, or give a default: ${" + std::string(name) + ":-value})"};
}

}  // namespace

Environment process_environment() {
  return [](std::string_view name) -> std::optional<std::string> {
    const char* value = std::getenv(std::string(name).c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

Result<std::string> expand_variables(std::string_view text, const Environment& env,
                                     Substitution substitution) {
  std::string expanded;
  size_t at = 0;
  while (at < text.size()) {
    const size_t dollar = text.find('$', at);
    if (dollar == std::string_view::npos) break;
    expanded.append(text.substr(at, dollar - at));
    const std::string_view from_dollar = text.substr(dollar);
    if (from_dollar.starts_with("$${")) {
      expanded += "${";
      at = dollar + 3;
      continue;
    }
    // A `$` not followed by `{` is the regex anchor (or just a dollar): kept as written.
    if (!from_dollar.starts_with("${")) {
      expanded += '$';
      at = dollar + 1;
      continue;
    }
    const size_t close = text.find('}', dollar + 2);
    if (close == std::string_view::npos) {
      return Error{
          "${ is not closed (write ${NAME}, or $${ for a literal ${; a value holding ${ must be "
          "quoted)"};
    }
    const auto value = resolve(text.substr(dollar + 2, close - dollar - 2), env);
    if (!value) return Error{value.error()};
    expanded += substitution == Substitution::regex_literal ? Regex::quote(*value) : *value;
    at = close + 1;
  }
  if (at < text.size()) expanded.append(text.substr(at));
  return expanded;
}

}  // namespace flightrec::config
