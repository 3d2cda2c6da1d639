#pragma once
// Each process row's container, for JSON's process rows (docs/RECORDING_FORMAT.md, the
// `container_name` column): the container frames of a dump or recording indexed by time, each
// process joined to the frame nearest its process frame (container/frame/process_container.h), as
// replay's Processes tab joins them. Process frames come before container frames in the output,
// so the converter is given the container frames first.
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "flightrec/container/frame/container_frame.h"
#include "flightrec/container/frame/process_container.h"
#include "flightrec/process/process_frame.h"

namespace flightrec::recording::detail {

class ContainerNames {
 public:
  // Frames in any order (each is placed by its time; in order, each is appended).
  void add(const container::ContainerFrame& frame);

  // container::display_name() of the container of `row` in the frame nearest `time_ns`; "" for a
  // process of the host, or with no container frames. Moving in time: the lookup of one frame is
  // kept for the rows that follow it.
  [[nodiscard]] std::string name_of(int64_t time_ns, const process::ProcessRow& row);

 private:
  struct Frame {
    int64_t time_unix_ns = 0;
    std::vector<const container::ContainerRow*> rows;
  };
  // One copy of each container's identity and names (no cgroup values), shared by every frame
  // that holds it unchanged: a dump of many frames keeps each container once.
  std::unordered_map<std::string, std::unique_ptr<const container::ContainerRow>> rows_;
  std::vector<Frame> frames_;
  int64_t looked_up_ = -1;  // the frame `lookup_` is of
  container::ContainerLookup lookup_;
};

}  // namespace flightrec::recording::detail
