#include "flightrec/sampler/process/pid_io.h"

#include <string>

#include "numbers.h"

namespace flightrec::sampler::process {

ParseResult<PidIo> parse_pid_io(std::string_view bytes) {
  PidIo io;
  size_t line_number = 0;
  while (!bytes.empty()) {
    ++line_number;
    const size_t newline = bytes.find('\n');
    const std::string_view line = bytes.substr(0, newline);
    bytes = newline == std::string_view::npos ? std::string_view() : bytes.substr(newline + 1);
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = line.substr(0, colon);
    std::optional<uint64_t>* field = key == "read_bytes"    ? &io.read_bytes
                                     : key == "write_bytes" ? &io.write_bytes
                                                            : nullptr;
    if (field == nullptr) continue;
    const std::string_view value = detail::trim(line.substr(colon + 1));
    *field = detail::parse_decimal<uint64_t>(value);
    if (!field->has_value()) {
      return ParseResult<PidIo>::failure("line " + std::to_string(line_number) + " (" +
                                         std::string(key) + "): malformed value '" +
                                         std::string(value) + "'");
    }
  }
  return {io, {}};
}

}  // namespace flightrec::sampler::process
