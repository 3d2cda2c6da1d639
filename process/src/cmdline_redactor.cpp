#include "flightrec/process/cmdline_redactor.h"

#include <stdexcept>

namespace flightrec::process {

CmdlineRedactor::CmdlineRedactor(std::string regex) : pattern_(std::move(regex)) {
  if (pattern_.empty()) return;
  auto compiled = Regex::compile(pattern_);
  if (!compiled) {
    throw std::invalid_argument("processes.redact_cmdline: invalid regex '" + pattern_ +
                                "': " + compiled.error());
  }
  regex_ = *std::move(compiled);
}

std::string CmdlineRedactor::redact(std::string_view cmdline) const {
  if (!regex_) return std::string(cmdline);
  std::string out;
  out.reserve(cmdline.size());
  size_t copied = 0;
  for (size_t from = 0; const auto match = regex_->find(cmdline, from);) {
    if (match->end == match->begin) {  // an empty match: look again one byte further
      from = match->begin + 1;
      continue;
    }
    out.append(cmdline.substr(copied, match->begin - copied));
    out.append(kRedacted);
    copied = from = match->end;
  }
  out.append(cmdline.substr(copied));
  return out;
}

}  // namespace flightrec::process
