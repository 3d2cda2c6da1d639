#include "flightrec/common/top_indices.h"

#include <catch2/catch.hpp>
#include <vector>

namespace flightrec {
namespace {

struct Rank {
  double value = 0;
  size_t index = 0;
  bool operator<(const Rank& other) const { return value > other.value; }  // largest first
};

TEST_CASE("top_indices gives the rows of the best ranks, best first", "[top_indices]") {
  const std::vector<Rank> ranked{{1.0, 0}, {5.0, 1}, {3.0, 2}, {4.0, 3}};
  CHECK(top_indices(ranked, 2) == std::vector<size_t>{1, 3});
  CHECK(top_indices(ranked, 10) == std::vector<size_t>{1, 3, 2, 0});
  CHECK(top_indices(ranked, 0).empty());
  CHECK(top_indices(std::vector<Rank>{}, 3).empty());
}

}  // namespace
}  // namespace flightrec
