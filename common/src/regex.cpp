#include "flightrec/common/regex.h"

#include <re2/re2.h>

namespace flightrec {

Regex::Regex(std::shared_ptr<const re2::RE2> compiled) : compiled_(std::move(compiled)) {}

Result<Regex> Regex::compile(std::string_view pattern) {
  RE2::Options options;
  // Bytes, not UTF-8: in UTF-8 mode an invalid byte matches no character class, so a secret
  // holding one would end its [^ ]+ match early and leak the rest.
  options.set_encoding(RE2::Options::EncodingLatin1);
  options.set_log_errors(false);  // the caller reports the error with the key's name
  auto compiled =
      std::make_shared<const re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!compiled->ok()) return Error{compiled->error()};
  return Regex(std::move(compiled));
}

std::string Regex::quote(std::string_view text) {
  return RE2::QuoteMeta(re2::StringPiece(text.data(), text.size()));
}

bool Regex::search(std::string_view text) const noexcept {
  return compiled_->Match(re2::StringPiece(text.data(), text.size()), 0, text.size(),
                          RE2::UNANCHORED, nullptr, 0);
}

bool Regex::full_match(std::string_view text) const noexcept {
  return compiled_->Match(re2::StringPiece(text.data(), text.size()), 0, text.size(),
                          RE2::ANCHOR_BOTH, nullptr, 0);
}

std::optional<RegexMatch> Regex::find(std::string_view text, size_t from) const noexcept {
  re2::StringPiece match;
  const re2::StringPiece whole(text.data(), text.size());
  if (from > text.size() ||
      !compiled_->Match(whole, from, text.size(), RE2::UNANCHORED, &match, 1)) {
    return std::nullopt;
  }
  const auto begin = static_cast<size_t>(match.data() - text.data());
  return RegexMatch{begin, begin + match.size()};
}

}  // namespace flightrec
