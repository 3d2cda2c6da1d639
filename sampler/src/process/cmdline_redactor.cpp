#include "flightrec/sampler/process/cmdline_redactor.h"

#include <stdexcept>

namespace flightrec::sampler::process {

CmdlineRedactor::CmdlineRedactor(std::string regex) : pattern_(std::move(regex)) {
  if (pattern_.empty()) return;
  try {
    regex_.emplace(pattern_, std::regex::ECMAScript | std::regex::optimize);
  } catch (const std::regex_error& e) {
    throw std::invalid_argument("processes.redact_cmdline: invalid regex '" + pattern_ +
                                "': " + e.what());
  }
}

std::string CmdlineRedactor::redact(std::string_view cmdline) const {
  if (!regex_) return std::string(cmdline);
  std::string out;
  out.reserve(cmdline.size());
  auto rest = cmdline.begin();
  using Iterator = std::regex_iterator<std::string_view::const_iterator>;
  for (Iterator it(cmdline.begin(), cmdline.end(), *regex_), end; it != end; ++it) {
    const auto& match = (*it)[0];
    if (match.length() == 0) continue;
    out.append(rest, match.first);
    out.append(kRedacted);
    rest = match.second;
  }
  out.append(rest, cmdline.end());
  return out;
}

}  // namespace flightrec::sampler::process
