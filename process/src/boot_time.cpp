#include "flightrec/process/boot_time.h"

#include "numbers.h"

namespace flightrec::process {

std::optional<int64_t> parse_boot_time(std::string_view proc_stat) {
  constexpr std::string_view kKey = "btime ";
  size_t pos = 0;
  while (pos < proc_stat.size()) {
    const size_t newline = proc_stat.find('\n', pos);
    const std::string_view line = proc_stat.substr(pos, newline - pos);
    if (line.starts_with(kKey)) {
      return detail::parse_decimal<int64_t>(detail::trim(line.substr(kKey.size())));
    }
    if (newline == std::string_view::npos) break;
    pos = newline + 1;
  }
  return std::nullopt;
}

}  // namespace flightrec::process
