#include "flightrec/config/trigger_rules.h"

#include <algorithm>

#include "flightrec/common/number_format.h"
#include "flightrec/config/units.h"

namespace flightrec::config {
namespace {

bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }

// A cursor over the selector text; each step consumes what it accepts.
class SelectorText {
 public:
  explicit SelectorText(std::string_view text) : text_(text) {}

  void skip_spaces() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
  }
  bool take(char c) {
    skip_spaces();
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  std::optional<std::string> name() {
    skip_spaces();
    size_t start = pos_;
    if (pos_ >= text_.size() || !is_name_start(text_[pos_])) return std::nullopt;
    while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }
  // PromQL's escapes that a regex needs: \\ for a backslash (web-\\d+ is the regex web-\d+) and
  // \" for a quote; any other backslash is refused rather than guessed at.
  std::optional<std::string> quoted() {
    if (!take('"')) return std::nullopt;
    std::string value;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      auto c = static_cast<unsigned char>(text_[pos_]);
      if (c < 0x20 || c == 0x7f) return std::nullopt;
      if (c == '\\') {
        if (++pos_ >= text_.size() || (text_[pos_] != '\\' && text_[pos_] != '"')) {
          return std::nullopt;
        }
      }
      value += text_[pos_++];
    }
    if (pos_ >= text_.size()) return std::nullopt;
    ++pos_;  // the closing quote
    return value;
  }
  // =, !=, =~ or !~, longest first.
  std::optional<MatchOp> match_op() {
    skip_spaces();
    for (const auto& row : kMatchOps) {
      if (text_.substr(pos_).starts_with(row.name)) {
        pos_ += row.name.size();
        return row.value;
      }
    }
    return std::nullopt;
  }
  bool at_end() {
    skip_spaces();
    return pos_ == text_.size();
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

std::optional<SignalSelector> parse_signal_selector(std::string_view text) {
  SelectorText in(text);
  SignalSelector selector;
  auto name = in.name();
  if (!name) return std::nullopt;
  selector.name = std::move(*name);
  if (in.at_end()) return selector;
  if (!in.take('{')) return std::nullopt;
  if (in.take('}')) return in.at_end() ? std::optional(selector) : std::nullopt;
  do {
    auto label = in.name();
    if (!label) return std::nullopt;
    const auto op = in.match_op();
    if (!op) return std::nullopt;
    auto value = in.quoted();
    if (!value) return std::nullopt;
    bool repeated = std::any_of(selector.labels.begin(), selector.labels.end(),
                                [&](const auto& written) { return written.name == *label; });
    if (repeated) return std::nullopt;
    selector.labels.push_back({std::move(*label), *op, std::move(*value)});
  } while (in.take(','));
  if (!in.take('}') || !in.at_end()) return std::nullopt;
  return selector;
}

std::string matcher_text(const LabelMatcher& matcher) {
  std::string text = matcher.name;
  text += name_of(kMatchOps, matcher.op);
  text += '"';
  for (const char c : matcher.value) {
    if (c == '\\' || c == '"') text += '\\';
    text += c;
  }
  text += '"';
  return text;
}

Result<CompiledMatcher> CompiledMatcher::compile(LabelMatcher matcher) {
  CompiledMatcher compiled;
  if (is_regex(matcher.op)) {
    auto regex = Regex::compile(matcher.value);
    if (!regex) {
      return Error{"label matcher " + matcher_text(matcher) + " is not a valid regex (" +
                   regex.error() + ")"};
    }
    compiled.regex_ = std::move(*regex);
  }
  compiled.matcher_ = std::move(matcher);
  return compiled;
}

bool CompiledMatcher::matches(std::string_view value) const {
  return holds(matcher_.op, value, matcher_.value, regex_ ? &*regex_ : nullptr);
}

Result<std::vector<CompiledMatcher>> compile_matchers(const SignalSelector& selector) {
  std::vector<CompiledMatcher> out;
  for (const LabelMatcher& matcher : selector.labels) {
    auto compiled = CompiledMatcher::compile(matcher);
    if (!compiled) return Error{compiled.error()};
    out.push_back(std::move(*compiled));
  }
  return out;
}

std::optional<Comparison> parse_comparison(std::string_view text) {
  return value_named(kComparisons, text);
}

std::string_view comparison_text(Comparison op) { return name_of(kComparisons, op); }

std::string condition_text(const TriggerRule& rule) {
  const std::string compared =
      rule.over ? "avg_over_time(" + rule.signal + "[" + format_duration(*rule.over) + "])"
                : rule.signal;
  return compared + " " + std::string(comparison_text(rule.op)) + " " + number_text(rule.value);
}

bool is_rule_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

}  // namespace flightrec::config
