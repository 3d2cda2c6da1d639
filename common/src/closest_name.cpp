#include "flightrec/common/closest_name.h"

#include <algorithm>

namespace flightrec {
namespace {

// Optimal string alignment distance: edits plus transpositions of neighbours.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::optional<std::string_view> closest_name(std::string_view name,
                                             const std::vector<std::string_view>& candidates) {
  size_t budget = std::max<size_t>(1, name.size() / 3);
  std::optional<std::string_view> best;
  size_t best_distance = budget + 1;
  for (std::string_view candidate : candidates) {
    // Lengths further apart than the budget cannot be close; skipping them also bounds the work.
    size_t length_gap = name.size() > candidate.size() ? name.size() - candidate.size()
                                                       : candidate.size() - name.size();
    if (length_gap > budget) continue;
    size_t distance = edit_distance(name, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace flightrec
