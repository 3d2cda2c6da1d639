#include "flightrec/config/trigger_rules.h"

#include <algorithm>

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
  std::optional<std::string> quoted() {
    if (!take('"')) return std::nullopt;
    size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      auto c = static_cast<unsigned char>(text_[pos_]);
      if (c < 0x20 || c == 0x7f || c == '\\') return std::nullopt;
      ++pos_;
    }
    if (pos_ >= text_.size()) return std::nullopt;
    std::string value(text_.substr(start, pos_ - start));
    ++pos_;  // the closing quote
    return value;
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
    if (!label || !in.take('=')) return std::nullopt;
    auto value = in.quoted();
    if (!value) return std::nullopt;
    bool repeated = std::any_of(selector.labels.begin(), selector.labels.end(),
                                [&](const auto& written) { return written.first == *label; });
    if (repeated) return std::nullopt;
    selector.labels.emplace_back(std::move(*label), std::move(*value));
  } while (in.take(','));
  if (!in.take('}') || !in.at_end()) return std::nullopt;
  return selector;
}

std::optional<Comparison> parse_comparison(std::string_view text) {
  return value_named(kComparisons, text);
}

std::string_view comparison_text(Comparison op) { return name_of(kComparisons, op); }

bool is_rule_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

}  // namespace flightrec::config
