#pragma once
// Containers and rounds as the container tier hands them to its observer, for the tests of what
// reads them (container rules, the directory of recent containers).
#include <memory>
#include <string>
#include <vector>

#include "flightrec/recorder/containers/container_round.h"

namespace flightrec::testing {

inline std::shared_ptr<const recorder::containers::ContainerInfo> container_info(
    std::string path, std::string id, std::string pod_namespace = {}, std::string pod = {},
    std::string container = {}) {
  recorder::containers::ContainerInfo info;
  info.ref.path = std::move(path);
  info.ref.identity.id = id;
  info.ref.identity.runtime = container::Runtime::containerd;
  info.names.id = std::move(id);
  info.names.pod_namespace = std::move(pod_namespace);
  info.names.pod = std::move(pod);
  info.names.container = std::move(container);
  return std::make_shared<const recorder::containers::ContainerInfo>(std::move(info));
}

// One round's reads, holding what the reads point at.
struct Round {
  std::vector<container::CgroupStats> stats;
  std::vector<recorder::containers::ContainerRead> reads;
  recorder::containers::ContainerRound round;

  Round(int64_t mono_ns, bool slow,
        std::vector<std::pair<std::shared_ptr<const recorder::containers::ContainerInfo>,
                              container::CgroupStats>>
            containers) {
    stats.reserve(containers.size());
    for (auto& [info, read] : containers) {
      stats.push_back(read);
      reads.push_back({info, &stats.back()});
    }
    round = {.mono_ns = mono_ns, .slow = slow, .reads = reads};
  }
};

}  // namespace flightrec::testing
