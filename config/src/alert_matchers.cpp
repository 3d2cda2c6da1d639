#include "flightrec/config/alert_matchers.h"

#include <algorithm>

#include "identifier.h"

namespace flightrec::config {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// A cursor over one matcher set's text.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  void skip_spaces() {
    while (at_ < text_.size() && is_space(text_[at_])) ++at_;
  }
  [[nodiscard]] bool done() const { return at_ >= text_.size(); }
  [[nodiscard]] char peek() const { return done() ? '\0' : text_[at_]; }
  bool take(char c) {
    if (peek() != c) return false;
    ++at_;
    return true;
  }
  std::string name() {
    const size_t from = at_;
    if (detail::is_identifier_start(peek())) {
      while (!done() && detail::is_identifier_char(text_[at_])) ++at_;
    }
    return std::string(text_.substr(from, at_ - from));
  }
  std::optional<MatchOp> op() {
    if (take('=')) return take('~') ? MatchOp::regex : MatchOp::equal;
    if (take('!')) {
      if (take('=')) return MatchOp::not_equal;
      if (take('~')) return MatchOp::not_regex;
    }
    return std::nullopt;
  }
  // A double-quoted value with \" \\ \n escapes, or a bare word up to ',' or '}'; or what is
  // malformed about it.
  Result<std::string> value() {
    std::string out;
    if (!take('"')) {
      const size_t from = at_;
      while (!done() && text_[at_] != ',' && text_[at_] != '}' && !is_space(text_[at_])) ++at_;
      out = std::string(text_.substr(from, at_ - from));
      // `a=="x"` or `a=~~x` is a typo, not the value `="x"`.
      if (out.find_first_of("\"=~!") == std::string::npos) return out;
      return Error{"a value holding \", =, ~ or ! must be quoted"};
    }
    while (!done()) {
      const char c = text_[at_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (done()) break;
      const char escaped = text_[at_++];
      if (escaped == 'n') {
        out += '\n';
      } else if (escaped == '"' || escaped == '\\') {
        out += escaped;
      } else {
        return Error{std::string("unknown escape \\") + escaped + " in a value"};
      }
    }
    return Error{"a quoted value is not closed"};
  }

 private:
  std::string_view text_;
  size_t at_ = 0;
};

// One `name op value`, or why not.
Result<AlertMatcher> parse_one(Scanner& scan, const Environment& env) {
  AlertMatcher matcher;
  matcher.name = scan.name();
  if (matcher.name.empty()) return Error{"expected a label name (letters, digits, _)"};
  scan.skip_spaces();
  const auto op = scan.op();
  if (!op) return Error{matcher.name + ": expected one of =, !=, =~, !~"};
  matcher.op = *op;
  scan.skip_spaces();
  const auto written = scan.value();
  if (!written) return Error{matcher.name + ": " + written.error()};
  // After unquoting, so that a variable's value needs no quoting of its own.
  const auto substitution =
      is_regex(matcher.op) ? Substitution::regex_literal : Substitution::literal;
  auto expanded = expand_variables(*written, env, substitution);
  if (!expanded) return Error{matcher.name + ": " + expanded.error()};
  matcher.value = *std::move(expanded);
  if (is_regex(matcher.op)) {
    // Anchored, as Alertmanager does: the regex must match the whole label value.
    auto compiled = Regex::compile("^(?:" + matcher.value + ")$");
    if (!compiled) {
      return Error{matcher.name + std::string(name_of(kMatchOps, matcher.op)) + "\"" +
                   matcher.value + "\": not a valid regex (" + compiled.error() + ")"};
    }
    matcher.regex = *std::move(compiled);
  }
  return matcher;
}

std::string_view value_of(const AlertLabels& labels, const std::string& name) {
  auto found = std::find_if(labels.begin(), labels.end(),
                            [&name](const auto& label) { return label.first == name; });
  return found == labels.end() ? std::string_view{} : std::string_view(found->second);
}

bool holds(const AlertMatcher& matcher, std::string_view value) {
  return config::holds(matcher.op, value, matcher.value, matcher.regex ? &*matcher.regex : nullptr);
}

}  // namespace

Result<AlertMatcherSet> parse_alert_matchers(std::string_view text, const Environment& env) {
  Scanner scan(text);
  scan.skip_spaces();
  const bool braced = scan.take('{');
  AlertMatcherSet set;
  for (;;) {
    scan.skip_spaces();
    if (scan.done() || scan.peek() == '}') break;
    auto matcher = parse_one(scan, env);
    if (!matcher) return Error{std::move(matcher).error()};
    set.push_back(*std::move(matcher));
    scan.skip_spaces();
    if (!scan.take(',')) break;
  }
  if (braced && !scan.take('}')) return Error{"expected , or } after a matcher"};
  scan.skip_spaces();
  if (!scan.done()) return Error{"unexpected text after the matchers"};
  if (set.empty()) return Error{"no matchers (write at least one, e.g. severity=\"critical\")"};
  return set;
}

bool matches_all(const AlertMatcherSet& set, const AlertLabels& labels) {
  return std::all_of(set.begin(), set.end(), [&labels](const AlertMatcher& matcher) {
    return holds(matcher, value_of(labels, matcher.name));
  });
}

bool passes_filter(const std::vector<AlertMatcherSet>& sets, const AlertLabels& labels) {
  if (sets.empty()) return true;
  return std::any_of(sets.begin(), sets.end(),
                     [&labels](const AlertMatcherSet& set) { return matches_all(set, labels); });
}

}  // namespace flightrec::config
