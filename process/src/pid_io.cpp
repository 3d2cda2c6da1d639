#include "flightrec/process/pid_io.h"

#include "numbers.h"
#include "procfs_lines.h"

namespace flightrec::process {

Result<PidIo> parse_pid_io(std::string_view bytes) {
  PidIo io;
  detail::LineSplitter lines(bytes);
  std::string_view line;
  while (lines.next(line)) {
    const auto pair = detail::split_key_value(line);
    if (!pair) continue;
    std::optional<uint64_t>* field = pair->key == "read_bytes"    ? &io.read_bytes
                                     : pair->key == "write_bytes" ? &io.write_bytes
                                                                  : nullptr;
    if (field == nullptr) continue;
    const std::string_view value = detail::trim(pair->value);
    *field = detail::parse_decimal<uint64_t>(value);
    if (!field->has_value()) {
      return Error{detail::malformed_value_error(lines.line_number(), pair->key, value)};
    }
  }
  return io;
}

}  // namespace flightrec::process
