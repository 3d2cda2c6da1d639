#pragma once
// What replay works on: a recording's metadata, its system-series blocks, its process frames and
// its container frames, in memory (the process frames possibly still encoded). Kept apart from
// recording::Recording so the model is built and tested from values made in memory and does not
// follow every change of the file reader.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "flightrec/container/frame/container_frame.h"
#include "flightrec/model/incident_description.h"
#include "flightrec/process/process_frame.h"
#include "flightrec/recording/metadata.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/store/block.h"

namespace flightrec::replay {

struct ReplayData {
  recording::Metadata meta;
  std::vector<std::shared_ptr<const store::Block>> blocks;  // ascending time
  std::vector<process::ProcessFrame> process_frames;        // ascending time
  // Process blocks as a file stores them, decoded as the cursor needs them (process_history.h);
  // a recording read from a file has these rather than process_frames.
  recording::ProcessBlockList process_blocks;
  std::vector<container::ContainerFrame> container_frames;  // ascending time
};

ReplayData from_recording(recording::Recording&& recording);

// A point of interest on the timeline: where an incident's rule fired, or a manual request came.
struct Trigger {
  int64_t time_ns = 0;
  // One line of printable ASCII for the screen: the rule, its condition, the value, the reason,
  // e.g. "cpu_busy: cpu_busy_ratio > 0.8 (value 0.93)" or "manual: during the deploy of v2.3";
  // an alert by its alertname, severity and summary: "alert: HighLoad (critical): CPU at 95%".
  std::string label;
  model::IncidentDescription incident;  // as stored, for output that keeps the text exact
  // Where replay puts the cursor for it: for an OOM kill the kill itself (oom.killed_at_ns, which
  // the rule's firing follows by a source step or so), else time_ns.
  int64_t focus_ns = 0;
  // An OOM kill's victim, to select in the Processes tab: its pid (0: not named) and "468
  // python3" (printable) for the status line.
  int32_t victim_pid = 0;
  std::string victim;
  bool oom_kill = false;  // the incident carries oom.* details
  // What the label leaves out, as printable lines for batch text and the details pane (`d`),
  // each a 10-column name and its text: an alert's "labels" (Prometheus' notation), one
  // "annotation" line each and its "generator" (generatorURL); an OOM kill's "victim" with its
  // cgroup, size and the sources that named it, or why none did; then every incident's "kind".
  std::vector<std::string> detail_lines;
};

// The trigger of an incident file (its description, model::decode_incident, with a time it
// fired); none for a plain dump.
std::vector<Trigger> triggers_of(const recording::Metadata& meta);

}  // namespace flightrec::replay
