#include "dump_window.h"

#include <string_view>

#include "flightrec/common/printable.h"
#include "flightrec/http/query_check.h"
#include "flightrec/recording/time_param.h"

namespace flightrec::dump {

Result<store::TimeRange> parse_dump_window(const http::Request& request, int64_t now_real_ns) {
  if (const Status names = http::check_query_names(request.query(), {"from", "to", "format"});
      !names) {
    return Error{names.error()};
  }
  store::TimeRange range;
  for (const auto* name : {"from", "to"}) {
    const auto text = request.param(name);
    if (!text) continue;
    const auto time = recording::parse_time_param(name, *text, now_real_ns);
    if (!time.ok()) return Error{time.error};
    (std::string_view(name) == "from" ? range.from_real_ns : range.to_real_ns) = time.real_ns;
  }
  if (range.from_real_ns > range.to_real_ns) {
    return Error{"from (" + quote_for_error(request.param("from").value_or("")) +
                 ") is after to (" + quote_for_error(request.param("to").value_or("")) + ")"};
  }
  return range;
}

}  // namespace flightrec::dump
