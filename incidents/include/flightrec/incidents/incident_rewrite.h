#pragma once
// Rewriting an incident file already written: a new description in its metadata and, optionally,
// the recording that followed its stored frames, appended. The stored file is read through and
// checked first, then copied with the changes into a temporary file that replaces it atomically
// (fsync, rename, directory fsync): a crash at any point leaves the old file or the new one, both
// complete, and any error leaves the old file as it was. See docs/INCIDENTS.md, "Rewriting".
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>

#include "flightrec/common/result.h"
#include "flightrec/model/incident_description.h"
#include "flightrec/store/block.h"
#include "flightrec/store/container_ring.h"
#include "flightrec/store/process_block.h"

namespace flightrec::incidents {

struct IncidentRewrite {
  model::IncidentDescription incident;  // replaces the stored "incident.*" metadata
  // Appended: the frames of these blocks later than the stored file's last ones and no later than
  // append_until_ns; 0 appends nothing. System frames must continue the stored ticks (the same
  // daemon run): blocks of another run are an error, not a file with ticks going backwards.
  std::span<const std::shared_ptr<const store::Block>> blocks;
  std::span<const std::shared_ptr<const store::ProcessBlock>> process_blocks;
  std::span<const std::shared_ptr<const store::StoredContainerFrame>> container_frames;
  int64_t append_until_ns = 0;
};

// What a rewrite wrote.
struct Rewritten {
  uint64_t bytes = 0;  // the new file's size
  uint64_t appended_frames = 0;
  uint64_t appended_process_frames = 0;
  uint64_t appended_container_frames = 0;
};

// The error names the file and what was wrong.
Result<Rewritten> rewrite_incident_file(const std::filesystem::path& path,
                                        const IncidentRewrite& rewrite);

}  // namespace flightrec::incidents
