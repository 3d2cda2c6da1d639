#include "flightrec/exposition/negotiation.h"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <vector>

#include "flightrec/common/enum_names.h"
#include "flightrec/http/header_list.h"

namespace flightrec::exposition {
namespace {

using http::HeaderElement;
using http::iequals;

constexpr std::string_view kOpenMetricsType = "application/openmetrics-text";
constexpr std::string_view kTextType = "text/plain";

// The Content-Type each format is served with.
constexpr EnumName<Format> kContentTypes[] = {
    {Format::text_0_0_4, "text/plain; version=0.0.4; charset=utf-8"},
    {Format::openmetrics_1_0_0, "application/openmetrics-text; version=1.0.0; charset=utf-8"}};
static_assert(names_are_distinct(kContentTypes) && rows_follow_values(kContentTypes));

bool version_is_one_of(const HeaderElement& range, std::initializer_list<std::string_view> known) {
  const auto* version = http::find_parameter(range, "version");
  if (version == nullptr) return true;  // unversioned means "any version you have"
  return std::any_of(known.begin(), known.end(),
                     [&](std::string_view v) { return version->value == v; });
}

// Whether media range `range` covers what we would send for `format`. A versioned range we cannot
// honour (say OpenMetrics 2.0.0) covers nothing.
bool covers(const HeaderElement& range, Format format) {
  if (range.token == "*/*") return true;
  if (format == Format::openmetrics_1_0_0) {
    // Prometheus 2.x also asks for 0.0.1, the pre-release name of the same format.
    return iequals(range.token, "application/*") ||
           (iequals(range.token, kOpenMetricsType) && version_is_one_of(range, {"1.0.0", "0.0.1"}));
  }
  // Prometheus 3 asks for text 1.0.0: 0.0.4 plus optional quoted UTF-8 names. Our names are all
  // legacy names, so 0.0.4 output is valid 1.0.0 as well.
  return iequals(range.token, "text/*") ||
         (iequals(range.token, kTextType) && version_is_one_of(range, {"0.0.4", "1.0.0"}));
}

// type/subtype beats type/* beats */*, as in RFC 9110 12.5.1.
int specificity(const HeaderElement& range) {
  if (range.token == "*/*") return 0;
  if (range.token.size() >= 2 && range.token.substr(range.token.size() - 2) == "/*") return 1;
  return 2;
}

// How much the client wants one format: the q of the most specific range covering it (the
// highest q among equally specific ones), and where that range stands, for breaking ties.
struct Preference {
  double quality = 0.0;
  int specificity = -1;  // -1: no range covers the format, so the client did not ask for it
  std::size_t position = 0;
};

Preference preference(const std::vector<HeaderElement>& ranges, Format format) {
  Preference best;
  for (const auto& range : ranges) {
    if (!covers(range, format)) continue;
    const int s = specificity(range);
    if (s > best.specificity || (s == best.specificity && range.quality > best.quality)) {
      best = {range.quality, s, range.position};
    }
  }
  return best;
}

}  // namespace

std::string_view content_type(Format format) { return name_of(kContentTypes, format); }

Format negotiate(std::string_view accept_header) {
  const auto ranges = http::parse_header_list(accept_header);
  const auto openmetrics = preference(ranges, Format::openmetrics_1_0_0);
  const auto text = preference(ranges, Format::text_0_0_4);
  if (openmetrics.quality <= 0.0) return Format::text_0_0_4;  // not asked for, or refused (q=0)
  if (text.quality <= 0.0) return Format::openmetrics_1_0_0;
  if (openmetrics.quality != text.quality) {
    return openmetrics.quality > text.quality ? Format::openmetrics_1_0_0 : Format::text_0_0_4;
  }
  // Equal q: the explicitly named format wins over one only reached through a wildcard, then
  // the one listed first. A single "*/*" covering both leaves the default, text.
  if (openmetrics.specificity != text.specificity) {
    return openmetrics.specificity > text.specificity ? Format::openmetrics_1_0_0
                                                      : Format::text_0_0_4;
  }
  return openmetrics.position < text.position ? Format::openmetrics_1_0_0 : Format::text_0_0_4;
}

}  // namespace flightrec::exposition
