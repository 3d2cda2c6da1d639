#pragma once
// The IncidentSink (model/incident_handoff.h) the trigger's writer hands incidents to, backed by an
// IncidentStore: picks from the ring snapshot (and from the process and container rings) the
// blocks and frames of the incident's window and writes them as one incident file. As the
// IncidentReviser it rewrites a stored incident (an alert's end), appending what the rings hold
// after its stored frames.
#include <functional>

#include "flightrec/incidents/incident_store.h"
#include "flightrec/model/incident_handoff.h"
#include "flightrec/recording/metadata.h"
#include "flightrec/store/container_ring.h"
#include "flightrec/store/process_block.h"

namespace flightrec::incidents {

// The recording metadata as of now (schema, rate, host, version); called on the writer thread for
// each incident, because keyed series bind their labels while the daemon runs.
using MetadataSource = std::function<recording::Metadata()>;
// The process tier's blocks as stored now, oldest first; empty function: no process tier.
using ProcessBlocksSource =
    std::function<std::vector<std::shared_ptr<const store::ProcessBlock>>()>;
// The container tier's frames with from_ns <= time <= to_ns, oldest first; empty function: no
// container tier.
using ContainerFramesSource =
    std::function<store::ContainerFrameList(int64_t from_ns, int64_t to_ns)>;

class IncidentFileSink final : public model::IncidentSink, public model::IncidentReviser {
 public:
  IncidentFileSink(IncidentStore& store, MetadataSource metadata,
                   ProcessBlocksSource process_blocks = {},
                   ContainerFramesSource container_frames = {});
  // Never throws: a failed write is an index entry with status "failed" (see IncidentStore), and
  // is told `failed`.
  model::WriteOutcome write(const model::IncidentCapture& incident,
                            store::Snapshot blocks) override;
  // Never throws: a failed rewrite leaves the file and its index entry as they were, logged.
  model::RevisionOutcome revise(const model::IncidentRevision& revision,
                                store::Snapshot ring) override;

 private:
  IncidentStore& store_;
  MetadataSource metadata_;
  ProcessBlocksSource process_blocks_;
  ContainerFramesSource container_frames_;
};

// The blocks holding any frame in [from_ns, to_ns]. Whole blocks: the file may hold frames a
// little outside the window (at most one block's span on each side).
std::vector<std::shared_ptr<const store::Block>> blocks_in_window(
    const std::vector<std::shared_ptr<const store::Block>>& blocks, int64_t from_ns, int64_t to_ns);
// The same for process blocks: every block with a frame in [from_ns, to_ns].
std::vector<std::shared_ptr<const store::ProcessBlock>> process_blocks_in_window(
    const std::vector<std::shared_ptr<const store::ProcessBlock>>& blocks, int64_t from_ns,
    int64_t to_ns);

}  // namespace flightrec::incidents
