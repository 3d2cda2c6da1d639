#include "flightrec/process/pid_status.h"

#include <limits>

#include "numbers.h"
#include "procfs_lines.h"

namespace flightrec::process {
namespace {

using detail::parse_decimal;

// "1812 kB" -> bytes. The kernel prints every size in status in kB (KiB).
std::optional<uint64_t> parse_kib(std::string_view value) {
  const size_t space = value.find(' ');
  if (space == std::string_view::npos || detail::trim(value.substr(space)) != "kB") {
    return std::nullopt;
  }
  const std::optional<uint64_t> kib = parse_decimal<uint64_t>(value.substr(0, space));
  if (!kib || *kib > std::numeric_limits<uint64_t>::max() / 1024) return std::nullopt;
  return *kib * 1024;
}

// "Uid:\t1000\t1000\t1000\t1000" holds real, effective, saved and filesystem ids.
bool parse_uids(std::string_view value, PidStatus& out) {
  const size_t tab = value.find_first_of(" \t");
  if (tab == std::string_view::npos) return false;
  const auto real = parse_decimal<uint32_t>(value.substr(0, tab));
  const std::string_view rest = value.substr(tab + 1);
  const auto effective = parse_decimal<uint32_t>(rest.substr(0, rest.find_first_of(" \t")));
  if (!real || !effective) return false;
  out.uid_real = real;
  out.uid_effective = effective;
  return true;
}

// Applies one "Key: value" line; false when a known key's value is malformed.
bool apply_line(std::string_view key, std::string_view value, PidStatus& out) {
  if (key == "Name") {
    out.name = std::string(value);
  } else if (key == "Uid") {
    return parse_uids(value, out);
  } else if (key == "VmRSS") {
    out.vm_rss_bytes = parse_kib(value);
    return out.vm_rss_bytes.has_value();
  } else if (key == "VmSize") {
    out.vm_size_bytes = parse_kib(value);
    return out.vm_size_bytes.has_value();
  } else if (key == "Threads") {
    out.threads = parse_decimal<int64_t>(value);
    return out.threads.has_value();
  }
  return true;
}

}  // namespace

Result<PidStatus> parse_pid_status(std::string_view bytes) {
  PidStatus status;
  detail::LineSplitter lines(bytes);
  std::string_view line;
  while (lines.next(line)) {
    const auto pair = detail::split_key_value(line);
    if (!pair) continue;
    // Only the tab after the colon is a separator: a Name can start or end with spaces.
    std::string_view value = pair->value;
    if (pair->key != "Name") {
      value = detail::trim(value);
    } else if (!value.empty() && value.front() == '\t') {
      value.remove_prefix(1);
    }
    if (!apply_line(pair->key, value, status)) {
      return Error{detail::malformed_value_error(lines.line_number(), pair->key, value)};
    }
  }
  return status;
}

}  // namespace flightrec::process
