#include "flightrec/http/query_check.h"

#include <algorithm>
#include <vector>

#include "flightrec/common/printable.h"

namespace flightrec::http {

Status check_query_names(std::string_view query, std::initializer_list<std::string_view> allowed) {
  std::vector<std::string_view> seen;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    if (item.empty()) continue;  // "a=1&&b=2": nothing was given there
    const std::string_view name = item.substr(0, item.find('='));
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      std::string names;
      for (const std::string_view known : allowed) {
        names += names.empty() ? "" : ", ";
        names += known;
      }
      return Error{"unknown parameter " + quote_for_error(name) +
                   " (allowed: " + (names.empty() ? "none" : names) + ")"};
    }
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      return Error{"parameter " + quote_for_error(name) + " is given more than once"};
    }
    seen.push_back(name);
  }
  return {};
}

}  // namespace flightrec::http
