#include "flightrec/config/match_op.h"

namespace flightrec::config {

bool holds(MatchOp op, std::string_view value, std::string_view literal,
           const Regex* regex) noexcept {
  switch (op) {
    case MatchOp::equal:
      return value == literal;
    case MatchOp::not_equal:
      return value != literal;
    case MatchOp::regex:
      return regex->full_match(value);
    case MatchOp::not_regex:
      return !regex->full_match(value);
  }
  return false;
}

}  // namespace flightrec::config
