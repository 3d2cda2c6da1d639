#pragma once
// Which containers /metrics exports: export.top_containers of them, so the label set stays
// bounded however many containers the tier tracks.
#include <cstddef>
#include <vector>

#include "flightrec/recorder/containers/container_snapshot.h"

namespace flightrec::exporter::metrics {

// Indices into snapshot.containers of at most `top_n` containers: first those throttled within
// export.window (the largest throttled share first), then the busiest by CPU; ties to the lower
// index (the lower cgroup path). A container not yet read twice ranks with 0 CPU.
[[nodiscard]] std::vector<size_t> containers_to_export(
    const recorder::containers::ContainerTierSnapshot& snapshot, size_t top_n);

}  // namespace flightrec::exporter::metrics
