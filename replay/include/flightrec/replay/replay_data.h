#pragma once
// What replay works on: a recording's metadata, its system-series blocks and its process frames,
// all in memory. Kept apart from recording::Recording so the model is built and tested from
// values made in memory and does not follow every change of the file reader.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "flightrec/recording/metadata.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/sampler/process/process_frame.h"
#include "flightrec/store/block.h"

namespace flightrec::replay {

struct ReplayData {
  recording::Metadata meta;
  std::vector<std::shared_ptr<const store::Block>> blocks;     // ascending time
  std::vector<sampler::process::ProcessFrame> process_frames;  // ascending time
};

ReplayData from_recording(recording::Recording&& recording);

// A point of interest on the timeline: where an incident's rule fired.
struct Trigger {
  int64_t time_ns = 0;
  std::string label;  // the rule, e.g. "load1 > 4"
};

// The triggers a recording's metadata names (incident.fired_at_ns with incident.rule and
// incident.value, as incident files carry them); none for a plain dump.
std::vector<Trigger> triggers_of(const recording::Metadata& meta);

}  // namespace flightrec::replay
