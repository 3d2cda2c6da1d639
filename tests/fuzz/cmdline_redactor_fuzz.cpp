// The default processes.redact_cmdline redaction over arbitrary /proc/<pid>/cmdline bytes, joined
// as the process sampler joins them: it must never crash, must leave nothing the pattern matches
// in what it returns, and must not touch a command line without a match.
// Seed corpus: tests/fixtures/procs-tier/*/cmdline and command lines with secrets.
#include <cstddef>
#include <cstdint>
#include <regex>
#include <string>

#include "flightrec/config/config.h"
#include "flightrec/process/cmdline.h"
#include "flightrec/process/cmdline_redactor.h"
#include "fuzz_check.h"

namespace process = flightrec::process;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string pattern = flightrec::config::Config{}.processes.redact_cmdline;
  static const process::CmdlineRedactor redactor(pattern);
  static const std::regex secret(pattern, std::regex::ECMAScript);

  const std::string cmdline = process::join_cmdline(flightrec::fuzz::as_text(data, size)).text;
  const std::string redacted = redactor.redact(cmdline);
  if (std::regex_search(redacted, secret)) __builtin_trap();
  if (!std::regex_search(cmdline, secret) && redacted != cmdline) __builtin_trap();
  return 0;
}
