#pragma once
// What a completed incident hands to whoever writes it: its description (which rule fired, on
// which series, with what value, or the manual request's reason, and the window of recording it
// covers) and the tick it fired on, plus a snapshot of the ring holding it. Here, below both, so
// that trigger/ (which captures and queues incidents) and incidents/ (whose file sink writes and
// rewrites them) share it without either knowing the other; the app hands the one to the other.
#include <cstdint>
#include <functional>

#include "flightrec/model/incident_description.h"
#include "flightrec/store/snapshot.h"
#include "flightrec/store/stats.h"

namespace flightrec::model {

// What became of an incident handed to the sink.
enum class WriteOutcome : uint8_t {
  written,
  failed,  // the file could not be written (disk full, read-only, EIO): listed as failed
};

struct IncidentCapture {
  // What the incident file stores. For a manual request: rule "manual", the request's reason, no
  // condition, series or value (NaN). For a rule: its name and condition as configured, the
  // series that held and its value; no reason.
  IncidentDescription description;
  uint64_t tick = 0;  // tick of the frame on which it fired
  // A place in the writer's queue is held for it (trigger::IncidentWriter::reserve): an alert's
  // capture, answered "captured" before its window ended. The writer never refuses it.
  bool reserved = false;
  // Told the sink's outcome on the writer thread, after the write; may be empty. Not told for an
  // incident the writer dropped (its submit's false says so).
  std::function<void(WriteOutcome)> done;
};

// Writes incidents (incidents::IncidentFileSink; trigger::OomVictimNamer names an OOM victim on
// the way). Called on the writer thread only.
class IncidentSink {
 public:
  virtual ~IncidentSink() = default;
  // `blocks` holds at least the description's window as far as the ring still has it; cut the
  // window from it. Says whether the file was written.
  virtual WriteOutcome write(const IncidentCapture& incident, store::Snapshot blocks) = 0;
};

// A change to an incident already written (an alert's end, trigger/alert_end.h). It is made on the
// writer thread, in order with the writes, so it finds any incident submitted before it.
enum class RevisionOutcome : uint8_t {
  revised,     // the file was rewritten and the index follows
  not_stored,  // no written incident matches (deleted by retention, its write failed or dropped)
  failed,      // the file could not be rewritten (unreadable, corrupt, disk full): left as it was
};

struct RevisedIncident {
  IncidentDescription description;
  // The recording after the stored frames is appended up to this time, as far as the ring holds
  // it; 0 appends nothing.
  int64_t append_until_ns = 0;
};

struct IncidentRevision {
  // Which stored incident: the newest written one whose description this accepts.
  std::function<bool(const IncidentDescription&)> matches;
  // Its new description, from the stored one and the span of the ring's frames now.
  std::function<RevisedIncident(const IncidentDescription& stored, const store::RingStats& ring)>
      revise;
  // Told the outcome on the writer thread; may be empty.
  std::function<void(RevisionOutcome)> done;
  // A place in the writer's queue is held for it, as for IncidentCapture::reserved.
  bool reserved = false;
};

// Rewrites incidents (incidents::IncidentFileSink). Called on the writer thread only.
class IncidentReviser {
 public:
  virtual ~IncidentReviser() = default;
  virtual RevisionOutcome revise(const IncidentRevision& revision, store::Snapshot ring) = 0;
};

}  // namespace flightrec::model
