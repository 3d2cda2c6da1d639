#pragma once
// Hides secrets in command lines before they are recorded (config key processes.redact_cmdline):
// a command line lands in /dump, recordings and incident files, and passwords on command lines
// are common (mysql -pSECRET, curl -H token:...).
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/common/regex.h"

namespace flightrec::sampler::process {

inline constexpr std::string_view kRedacted = "<redacted>";

class CmdlineRedactor {
 public:
  // `regex` is an RE2 regular expression (common/regex.h); "" redacts nothing. Throws
  // std::invalid_argument naming processes.redact_cmdline when it does not compile (a set-up
  // error).
  explicit CmdlineRedactor(std::string regex);

  // `cmdline` with every match replaced by "<redacted>". A match must not be empty: a pattern
  // that matches "" anywhere would otherwise wrap every character.
  [[nodiscard]] std::string redact(std::string_view cmdline) const;

  [[nodiscard]] const std::string& pattern() const noexcept { return pattern_; }

 private:
  std::string pattern_;
  std::optional<Regex> regex_;
};

}  // namespace flightrec::sampler::process
