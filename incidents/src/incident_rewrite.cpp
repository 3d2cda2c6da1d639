#include "flightrec/incidents/incident_rewrite.h"

#include <fstream>
#include <stdexcept>
#include <vector>

#include "flightrec/common/atomic_file.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/store/block_slice.h"

namespace flightrec::incidents {
namespace {

// Where the stored recording ends, from reading it through (which also checks every section).
struct StoredEnd {
  bool any_block = false;
  uint64_t last_tick = 0;
  int64_t last_real_ns = 0;
  bool any_process_block = false;
  int64_t last_process_ns = 0;
  bool any_container_frame = false;
  int64_t last_container_ns = 0;
};

Result<StoredEnd> read_stored_end(const std::filesystem::path& path) {
  if (const Status openable = recording::check_openable(path); !openable) {
    return Error{openable.error()};
  }
  StoredEnd end;
  std::ifstream in(path, std::ios::binary);
  recording::RecordingReader reader(in);
  if (reader.open()) {
    while (const auto record = reader.next_record()) {
      if (record.block) {
        end.any_block = true;
        end.last_tick = record.block->last_tick();
        end.last_real_ns = record.block->real_ns(end.last_tick);
      } else if (record.process_block) {
        end.any_process_block = true;
        end.last_process_ns = record.process_block->last_time_ns();
      } else {
        end.any_container_frame = true;
        end.last_container_ns = record.container_frame->time_unix_ns;
      }
    }
  }
  if (!reader.complete()) return Error{reader.error()};
  return end;
}

struct Appended {
  std::vector<std::shared_ptr<const store::Block>> blocks;
  std::vector<std::shared_ptr<const store::ProcessBlock>> process_blocks;
  std::vector<std::shared_ptr<const store::StoredContainerFrame>> container_frames;
  uint64_t frames = 0;
  uint64_t process_frames = 0;
};

Result<Appended> frames_to_append(const IncidentRewrite& rewrite, const StoredEnd& stored) {
  Appended out;
  // A file without system frames (the ring was empty) has no recording to continue.
  if (rewrite.append_until_ns == 0 || !stored.any_block) return out;
  const int64_t after_ns = stored.last_real_ns;
  for (const auto& block : rewrite.blocks) {
    auto slice = store::frames_between(block, after_ns, rewrite.append_until_ns);
    if (!slice) continue;
    if (slice->first_tick() <= stored.last_tick) {
      return Error{"the frames to append do not continue the stored ticks (tick " +
                   std::to_string(slice->first_tick()) + " after " +
                   std::to_string(stored.last_tick) + "): they are of another daemon run"};
    }
    out.frames += slice->frames();
    out.blocks.push_back(std::move(slice));
  }
  // Process frames follow the stored ones; a file without any follows its system frames.
  const int64_t process_after_ns = stored.any_process_block ? stored.last_process_ns : after_ns;
  for (const auto& block : rewrite.process_blocks) {
    auto slice = store::process_frames_between(block, process_after_ns, rewrite.append_until_ns);
    if (!slice) continue;
    out.process_frames += slice->frames();
    out.process_blocks.push_back(std::move(slice));
  }
  // Container frames likewise, each whole.
  const int64_t container_after_ns =
      stored.any_container_frame ? stored.last_container_ns : after_ns;
  for (const auto& frame : rewrite.container_frames) {
    if (frame->time_unix_ns > container_after_ns &&
        frame->time_unix_ns <= rewrite.append_until_ns) {
      out.container_frames.push_back(frame);
    }
  }
  return out;
}

// The stored records, then the appended ones, into `file`; the error says what went wrong.
Status copy_with_changes(const std::filesystem::path& path, const IncidentRewrite& rewrite,
                         const Appended& appended, AtomicFile& file) {
  std::ifstream in(path, std::ios::binary);
  recording::RecordingReader reader(in);
  if (!reader.open()) return Error{"cannot read it again: " + reader.error()};
  recording::Metadata metadata = reader.metadata();
  model::replace_incident(rewrite.incident, metadata.extra);
  recording::RecordingWriter writer([&file](std::string_view bytes) { return file.write(bytes); },
                                    metadata);
  try {
    while (const auto record = reader.next_record()) {
      if (record.block) {
        writer.add(*record.block);
      } else if (record.process_block) {
        writer.add_process_block(*record.process_block);
      } else {
        writer.add_container_frame(*record.container_frame);
      }
    }
    if (!reader.complete()) return Error{"changed while it was rewritten: " + reader.error()};
    writer.add_all(appended.blocks, appended.process_blocks, appended.container_frames);
  } catch (const std::invalid_argument& e) {
    // RecordingWriter::add: a block whose series or rate differ from the stored metadata.
    return Error{std::string("the frames to append do not fit the stored recording: ") + e.what()};
  }
  writer.finish();
  return {};
}

}  // namespace

Result<Rewritten> rewrite_incident_file(const std::filesystem::path& path,
                                        const IncidentRewrite& rewrite) {
  const auto failed = [&](const std::string& why) {
    return Error{path.string() + ": cannot be rewritten, left as it was: " + why};
  };
  const auto stored = read_stored_end(path);
  if (!stored) return failed(stored.error());
  const auto appended = frames_to_append(rewrite, *stored);
  if (!appended) return failed(appended.error());
  {
    // Without a commit the temporary file is removed when `file` goes.
    AtomicFile file(path);
    if (const Status copied = copy_with_changes(path, rewrite, *appended, file); !copied) {
      return failed(copied.error());
    }
    const Status written = file.commit();
    // The atomic writer's own wording ("cannot <step> <path>: <errno text>") names the file and
    // ends with strerror, which the store reads the failure cause back from.
    if (!written.ok()) return Error{written.error()};
  }
  std::error_code size_error;
  return Rewritten{.bytes = std::filesystem::file_size(path, size_error),
                   .appended_frames = appended->frames,
                   .appended_process_frames = appended->process_frames,
                   .appended_container_frames = appended->container_frames.size()};
}

}  // namespace flightrec::incidents
