#include "value_checks.h"

#include "flightrec/config/detail/text.h"
#include "flightrec/config/units.h"

namespace flightrec::config::detail {

std::string out_of_range(std::string_view scalar, const std::string& allowed) {
  return quote(scalar) + " is out of range (allowed: " + allowed + ")";
}

Result<Duration> read_duration(std::string_view scalar, Duration min, Duration max,
                               const std::string& allowed) {
  const auto value = parse_duration(scalar);
  // A negative duration is one, just below every range: say so rather than "not a duration".
  if (!value && scalar.starts_with('-') && parse_duration(scalar.substr(1))) {
    return Error{out_of_range(scalar, allowed)};
  }
  if (!value) return Error{quote(scalar) + std::string(kNotADuration)};
  if (*value < min || *value > max) return Error{out_of_range(scalar, allowed)};
  return *value;
}

Result<uint64_t> read_size(std::string_view scalar, uint64_t min, uint64_t max,
                           const std::string& allowed) {
  const auto value = parse_size(scalar);
  if (!value) return Error{quote(scalar) + std::string(kNotASize)};
  if (*value < min || *value > max) return Error{out_of_range(scalar, allowed)};
  return *value;
}

}  // namespace flightrec::config::detail
