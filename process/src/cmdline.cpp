#include "flightrec/process/cmdline.h"

#include <algorithm>

namespace flightrec::process {

Cmdline join_cmdline(std::string_view bytes, size_t max_bytes) {
  // The last argument's NUL (and any padding a process left after rewriting its title) is not a
  // separator.
  const size_t end = bytes.find_last_not_of('\0');
  bytes = end == std::string_view::npos ? std::string_view() : bytes.substr(0, end + 1);
  Cmdline out;
  out.truncated = bytes.size() > max_bytes;
  out.text.assign(bytes.substr(0, max_bytes));
  std::replace(out.text.begin(), out.text.end(), '\0', ' ');
  return out;
}

}  // namespace flightrec::process
