#include "flightrec/container/cgroups/value_files.h"

#include <string>

#include "flightrec/common/printable.h"
#include "flightrec/container/cgroups/cgroup_stats.h"
#include "flightrec/sampler/sources/parsing.h"

namespace flightrec::container {
namespace {

// v1 memory limits that mean "none": PAGE_COUNTER_MAX pages in bytes is INT64_MAX rounded down to
// a page, so it sits within one page of INT64_MAX whatever the page size.
constexpr int64_t kV1NoLimitFloor = kUnlimited - (int64_t{1} << 20);

std::string_view without_newline(std::string_view text) {
  if (text.ends_with('\n')) text.remove_suffix(1);
  return text;
}

Error not_a(std::string_view what, std::string_view text) {
  constexpr size_t kShownBytes = 40;
  return Error{quote_for_error(text, {.max_bytes = kShownBytes}) + " is not " + std::string(what)};
}

}  // namespace

Result<int64_t> parse_cgroup_count(std::string_view text) {
  const std::string_view value = without_newline(text);
  std::string_view rest = value;
  int64_t count = 0;
  if (!sampler::parsing::read_digits(rest, count) || !rest.empty()) {
    return not_a("a whole count", value);
  }
  return count;
}

Result<int64_t> parse_cgroup_limit(std::string_view text) {
  const std::string_view value = without_newline(text);
  if (value == "max") return kUnlimited;
  std::string_view rest = value;
  int64_t limit = 0;
  if (!sampler::parsing::read_digits(rest, limit) || !rest.empty()) {
    return not_a("a limit (a whole count or \"max\")", value);
  }
  return limit >= kV1NoLimitFloor ? kUnlimited : limit;
}

}  // namespace flightrec::container
