#pragma once
// A top-N over rows kept elsewhere: each rank carries its row's `index`, and the first `n` ranks
// in their own order (operator<, best first) give the rows chosen, without moving the rows.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace flightrec {

template <typename Rank>
[[nodiscard]] std::vector<size_t> top_indices(std::vector<Rank> ranked, size_t n) {
  const size_t kept = std::min(n, ranked.size());
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(kept),
                    ranked.end());
  std::vector<size_t> chosen;
  chosen.reserve(kept);
  for (size_t i = 0; i < kept; ++i) chosen.push_back(ranked[i].index);
  return chosen;
}

}  // namespace flightrec
