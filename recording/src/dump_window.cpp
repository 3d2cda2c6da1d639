#include "flightrec/recording/dump_window.h"

#include <string_view>
#include <vector>

#include "flightrec/recording/time_param.h"

namespace flightrec::recording {
namespace {

// Names of the query's parameters, in order (the raw, still-encoded names).
std::vector<std::string_view> parameter_names(std::string_view query) {
  std::vector<std::string_view> names;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const auto item = query.substr(0, amp);
    if (!item.empty()) names.push_back(item.substr(0, item.find('=')));
    query = amp == std::string_view::npos ? "" : query.substr(amp + 1);
  }
  return names;
}

}  // namespace

std::string parse_dump_window(const http::Request& request, int64_t now_real_ns,
                              store::TimeRange& range) {
  for (const auto name : parameter_names(request.query())) {
    if (name != "from" && name != "to" && name != "format") {
      return "unknown parameter \"" + std::string(name) + "\" (allowed: from, to, format)";
    }
  }
  for (const auto* name : {"from", "to"}) {
    const auto text = request.param(name);
    if (!text) continue;
    const auto time = parse_time_param(name, *text, now_real_ns);
    if (!time.ok()) return time.error;
    (std::string_view(name) == "from" ? range.from_real_ns : range.to_real_ns) = time.real_ns;
  }
  if (range.from_real_ns > range.to_real_ns) {
    return "from (\"" + request.param("from").value_or("") + "\") is after to (\"" +
           request.param("to").value_or("") + "\")";
  }
  return {};
}

}  // namespace flightrec::recording
