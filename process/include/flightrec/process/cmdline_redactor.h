#pragma once
// Hides secrets in command lines before they are recorded (config key processes.redact_cmdline):
// a command line lands in /dump, recordings and incident files, and passwords on command lines
// are common (mysql -pSECRET, curl -H token:...).
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/common/regex.h"

namespace flightrec::process {

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

// A new redactor on its way to the process tier's thread: a configuration reload offers it from
// its own thread, the tier takes it at the start of its next tick (processes.redact_cmdline is a
// live setting, docs/CONFIG.md "Reloading").
class RedactorUpdate {
 public:
  void offer(CmdlineRedactor next) {
    const std::lock_guard lock(mutex_);
    pending_ = std::move(next);
  }
  // The offered redactor, once; nullopt when none is waiting.
  [[nodiscard]] std::optional<CmdlineRedactor> take() {
    const std::lock_guard lock(mutex_);
    std::optional<CmdlineRedactor> next = std::move(pending_);
    pending_.reset();
    return next;
  }

 private:
  std::mutex mutex_;
  std::optional<CmdlineRedactor> pending_;
};

}  // namespace flightrec::process
