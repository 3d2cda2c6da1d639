#pragma once
// The regular expressions of config keys (processes.redact_cmdline, the keyed sources' include and
// exclude): RE2 syntax, the one Prometheus and node_exporter use, matched against bytes (Latin-1).
// RE2 runs in time linear in the text, so no pattern can stall the sampler on hostile input: any
// local user writes the command lines the redactor reads. Backtracking engines (std::regex) take
// exponential time on patterns like (a+)+b.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/common/result.h"

namespace re2 {
class RE2;
}

namespace flightrec {

struct RegexMatch {
  size_t begin = 0;
  size_t end = 0;  // one past the last byte
};

class Regex {
 public:
  // The compiled regex, or RE2's reason it is not one (e.g. "missing ): (a").
  static Result<Regex> compile(std::string_view pattern);
  // `text` as a pattern that matches exactly that text: every metacharacter escaped (a host
  // name's dots match only dots).
  [[nodiscard]] static std::string quote(std::string_view text);

  // Whether the regex matches anywhere in `text` (unanchored, like Go's MatchString).
  [[nodiscard]] bool search(std::string_view text) const noexcept;

  // Whether the regex matches the whole of `text` (anchored at both ends, as Prometheus anchors
  // a label matcher's regex).
  [[nodiscard]] bool full_match(std::string_view text) const noexcept;

  // The leftmost match that starts at or after `from`; ^ still means the start of `text`.
  [[nodiscard]] std::optional<RegexMatch> find(std::string_view text, size_t from) const noexcept;

 private:
  explicit Regex(std::shared_ptr<const re2::RE2> compiled);
  std::shared_ptr<const re2::RE2> compiled_;  // RE2 is immutable and safe to share across threads
};

}  // namespace flightrec
