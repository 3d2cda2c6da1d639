#include "flightrec/exporter/metrics/container_ranking.h"

#include <tuple>
#include <utility>

#include "flightrec/common/top_indices.h"

namespace flightrec::exporter::metrics {

std::vector<size_t> containers_to_export(
    const recorder::containers::ContainerTierSnapshot& snapshot, size_t top_n) {
  struct Rank {
    double throttled = 0;
    double cpu = 0;
    size_t index = 0;
    bool operator<(const Rank& other) const {
      return std::tie(other.throttled, other.cpu, index) < std::tie(throttled, cpu, other.index);
    }
  };
  std::vector<Rank> ranked;
  ranked.reserve(snapshot.containers.size());
  for (size_t i = 0; i < snapshot.containers.size(); ++i) {
    const auto& signals = snapshot.containers[i].signals;
    ranked.push_back({signals.throttled_share_max.value_or(0), signals.cpu_cores.value_or(0), i});
  }
  return top_indices(std::move(ranked), top_n);
}

}  // namespace flightrec::exporter::metrics
