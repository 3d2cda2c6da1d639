#pragma once
// The trigger's IncidentSink backed by an IncidentStore: picks from the ring snapshot the blocks
// that overlap the incident's window and writes them as one incident file.
#include <functional>

#include "flightrec/incidents/incident_store.h"
#include "flightrec/recording/metadata.h"
#include "flightrec/trigger/incident.h"

namespace flightrec::incidents {

// The recording metadata as of now (schema, rate, host, version); called on the writer thread for
// each incident, because keyed series bind their labels while the daemon runs.
using MetadataSource = std::function<recording::Metadata()>;

class IncidentFileSink final : public trigger::IncidentSink {
 public:
  IncidentFileSink(IncidentStore& store, MetadataSource metadata);
  // Never throws: a failed write is an index entry with status "failed" (see IncidentStore).
  void write(const trigger::IncidentCapture& incident, store::Snapshot blocks) override;

 private:
  IncidentStore& store_;
  MetadataSource metadata_;
};

// The blocks holding any frame in [from_ns, to_ns]. Whole blocks: the file may hold frames a
// little outside the window (at most one block's span on each side).
std::vector<std::shared_ptr<const store::Block>> blocks_in_window(
    const std::vector<std::shared_ptr<const store::Block>>& blocks, int64_t from_ns, int64_t to_ns);

}  // namespace flightrec::incidents
