#include "flightrec/sampler/cpu_list.h"

#include <algorithm>
#include <charconv>

namespace flightrec::sampler {
namespace {

bool parse_id(std::string_view text, uint32_t& id) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, id);
  return !text.empty() && ec == std::errc() && ptr == end;
}

}  // namespace

Result<std::vector<uint32_t>> parse_cpu_list(std::string_view text, uint32_t max_id) {
  std::vector<uint32_t> ids;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const size_t dash = item.find('-');
    uint32_t first = 0;
    uint32_t last = 0;
    const bool parsed =
        dash == std::string_view::npos
            ? parse_id(item, first) && parse_id(item, last)
            : parse_id(item.substr(0, dash), first) && parse_id(item.substr(dash + 1), last);
    if (!parsed || last < first) {
      return Error{"\"" + std::string(item) + "\" is not a CPU id or range"};
    }
    if (last > max_id) {
      return Error{"CPU id " + std::to_string(last) + " is above " + std::to_string(max_id)};
    }
    for (uint32_t id = first; id <= last; ++id) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.empty()) return Error{"no CPU ids"};
  return ids;
}

}  // namespace flightrec::sampler
