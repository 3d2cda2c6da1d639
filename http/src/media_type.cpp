#include "flightrec/http/media_type.h"

#include <vector>

#include "flightrec/http/header_list.h"

namespace flightrec::http {
namespace {

// How closely `range` names `type`: 2 for type/subtype, 1 for type/*, 0 for */*, -1 when it does
// not cover it.
int coverage(std::string_view range, std::string_view type) {
  if (range == "*/*") return 0;
  const size_t slash = type.find('/');
  if (slash == std::string_view::npos) return iequals(range, type) ? 2 : -1;
  if (range.size() == slash + 2 && range.substr(slash) == "/*" &&
      iequals(range.substr(0, slash), type.substr(0, slash))) {
    return 1;
  }
  return iequals(range, type) ? 2 : -1;
}

struct Rank {
  double quality = 0.0;
  int specificity = -1;  // -1: no range covers the offer
  std::size_t position = 0;
};

Rank rank(const std::vector<HeaderElement>& ranges, std::string_view type) {
  Rank best;
  for (const auto& range : ranges) {
    const int covered = coverage(range.token, type);
    if (covered < 0) continue;
    // The most specific range decides, whatever its q (text/html;q=0 refuses HTML under */*).
    if (covered > best.specificity ||
        (covered == best.specificity && range.quality > best.quality)) {
      best = {range.quality, covered, range.position};
    }
  }
  return best;
}

bool ranks_above(const Rank& a, const Rank& b) {
  if (a.quality != b.quality) return a.quality > b.quality;
  if (a.specificity != b.specificity) return a.specificity > b.specificity;
  return a.position < b.position;
}

}  // namespace

std::optional<std::size_t> preferred_media_type(std::string_view accept_header,
                                                std::span<const std::string_view> offered) {
  const auto ranges = parse_header_list(accept_header);
  std::optional<std::size_t> chosen;
  Rank chosen_rank;
  for (std::size_t i = 0; i < offered.size(); ++i) {
    const Rank r = rank(ranges, offered[i]);
    if (r.quality <= 0.0) continue;  // not asked for, or refused with q=0
    // Strictly above: an offer that only ties keeps the earlier one, the route's preference.
    if (!chosen || ranks_above(r, chosen_rank)) {
      chosen = i;
      chosen_rank = r;
    }
  }
  return chosen;
}

}  // namespace flightrec::http
