#include "flightrec/incidents/incident_file_sink.h"

#include <algorithm>
#include <limits>

namespace flightrec::incidents {

IncidentFileSink::IncidentFileSink(IncidentStore& store, MetadataSource metadata,
                                   ProcessBlocksSource process_blocks,
                                   ContainerFramesSource container_frames)
    : store_(store),
      metadata_(std::move(metadata)),
      process_blocks_(std::move(process_blocks)),
      container_frames_(std::move(container_frames)) {}

model::WriteOutcome IncidentFileSink::write(const model::IncidentCapture& incident,
                                            store::Snapshot blocks) {
  const model::IncidentDescription& description = incident.description;
  const int64_t from_ns = description.window_from_ns;
  const int64_t to_ns = description.window_to_ns;
  const auto selected = blocks_in_window(blocks.blocks(), from_ns, to_ns);
  // The process ring keeps buffer.duration too, so it normally still holds the whole window when
  // the writer runs (after the post window); under its byte bound (a quarter of buffer.max_bytes)
  // the oldest process blocks may be gone, and the file then starts its process frames later.
  const auto processes = process_blocks_
                             ? process_blocks_in_window(process_blocks_(), from_ns, to_ns)
                             : std::vector<std::shared_ptr<const store::ProcessBlock>>{};
  // The container ring keeps buffer.duration too, in an eighth of buffer.max_bytes.
  const auto containers =
      container_frames_ ? container_frames_(from_ns, to_ns) : store::ContainerFrameList{};
  const IncidentEntry entry =
      store_.write(description, metadata_(), selected, processes, containers);
  return entry.status == IncidentStatus::written ? model::WriteOutcome::written
                                                 : model::WriteOutcome::failed;
}

model::RevisionOutcome IncidentFileSink::revise(const model::IncidentRevision& revision,
                                                store::Snapshot ring) {
  const auto entries = store_.list();  // newest first
  const auto stored = std::find_if(entries.begin(), entries.end(), [&](const IncidentEntry& e) {
    return e.status == IncidentStatus::written && revision.matches(e.incident);
  });
  if (stored == entries.end()) return model::RevisionOutcome::not_stored;
  const auto blocks = ring.blocks();
  const model::RevisedIncident revised = revision.revise(stored->incident, store::measure(blocks));
  const auto processes = process_blocks_ && revised.append_until_ns != 0
                             ? process_blocks_()
                             : std::vector<std::shared_ptr<const store::ProcessBlock>>{};
  const auto containers =
      container_frames_ && revised.append_until_ns != 0
          ? container_frames_(std::numeric_limits<int64_t>::min(), revised.append_until_ns)
          : store::ContainerFrameList{};
  const StoredRewrite done =
      store_.rewrite(stored->id, {.incident = revised.description,
                                  .blocks = blocks,
                                  .process_blocks = processes,
                                  .container_frames = containers,
                                  .append_until_ns = revised.append_until_ns});
  if (!done.found) return model::RevisionOutcome::not_stored;
  return done.result.ok() ? model::RevisionOutcome::revised : model::RevisionOutcome::failed;
}

std::vector<std::shared_ptr<const store::Block>> blocks_in_window(
    const std::vector<std::shared_ptr<const store::Block>>& blocks, int64_t from_ns,
    int64_t to_ns) {
  std::vector<std::shared_ptr<const store::Block>> selected;
  for (const auto& block : blocks) {
    const int64_t first = block->real_ns(block->first_tick());
    const int64_t last = block->real_ns(block->last_tick());
    if (last >= from_ns && first <= to_ns) selected.push_back(block);
  }
  return selected;
}

std::vector<std::shared_ptr<const store::ProcessBlock>> process_blocks_in_window(
    const std::vector<std::shared_ptr<const store::ProcessBlock>>& blocks, int64_t from_ns,
    int64_t to_ns) {
  std::vector<std::shared_ptr<const store::ProcessBlock>> selected;
  for (const auto& block : blocks) {
    if (block->last_time_ns() >= from_ns && block->first_time_ns() <= to_ns) {
      selected.push_back(block);
    }
  }
  return selected;
}

}  // namespace flightrec::incidents
