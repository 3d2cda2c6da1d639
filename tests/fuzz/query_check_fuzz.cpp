// check_query_names on arbitrary raw query strings (the incident routes' ?format=...): it must
// never crash, must refuse exactly the queries with an unknown or repeated name, and its error
// must be one line of printable ASCII whatever the query held. quote_for_error, which quotes the
// name, must be undone by reading its escapes back.
// Seed corpus: queries as browsers and curl send them to /incidents/<id>.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/printable.h"
#include "flightrec/http/query_check.h"
#include "fuzz_check.h"

namespace {

bool printable_line(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c <= 0x7e; });
}

// The oracle: names are what comes before the first '=' of each non-empty '&'-separated item.
bool names_allowed_once(std::string_view query) {
  std::vector<std::string_view> seen;
  size_t start = 0;
  while (start <= query.size()) {
    const size_t amp = std::min(query.find('&', start), query.size());
    const std::string_view item = query.substr(start, amp - start);
    start = amp + 1;
    if (item.empty()) continue;
    const std::string_view name = item.substr(0, item.find('='));
    if ((name != "format" && name != "from") ||
        std::find(seen.begin(), seen.end(), name) != seen.end()) {
      return false;
    }
    seen.push_back(name);
  }
  return true;
}

std::string unquote(std::string_view quoted) {
  if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"') __builtin_trap();
  quoted = quoted.substr(1, quoted.size() - 2);
  std::string out;
  for (size_t i = 0; i < quoted.size(); ++i) {
    if (quoted[i] == '"') __builtin_trap();  // a bare quote would end the quoted text early
    if (quoted[i] != '\\') {
      out += quoted[i];
    } else if (i + 1 < quoted.size() && (quoted[i + 1] == '"' || quoted[i + 1] == '\\')) {
      out += quoted[++i];
    } else if (i + 3 < quoted.size() && quoted[i + 1] == 'x') {
      out += static_cast<char>(std::stoi(std::string(quoted.substr(i + 2, 2)), nullptr, 16));
      i += 3;
    } else {
      __builtin_trap();
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view query = flightrec::fuzz::as_text(data, size);
  const flightrec::Status names = flightrec::http::check_query_names(query, {"format", "from"});
  if (names.ok() != names_allowed_once(query)) __builtin_trap();
  if (!printable_line(names.error())) __builtin_trap();

  const std::string quoted = flightrec::quote_for_error(query);
  if (!printable_line(quoted) || unquote(quoted) != query) __builtin_trap();
  return 0;
}
