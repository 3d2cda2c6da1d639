#pragma once
// The incident directory: start-up scan (quarantine of torn or corrupt files, removal of leftover
// temporaries), atomic writes, count and byte retention, and an index that HTTP threads read while
// the writer thread writes. Nothing here throws once constructed: a write that fails is an index
// entry with status "failed", a counter and (once per cause) a log line. See docs/INCIDENTS.md.
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "flightrec/incidents/incident.h"
#include "flightrec/recording/metadata.h"
#include "flightrec/store/block.h"
#include "flightrec/store/process_block.h"

namespace flightrec::incidents {

struct IncidentStoreOptions {
  std::filesystem::path dir;        // incidents.dir
  uint64_t max_count = 100;         // incidents.max_count
  uint64_t max_bytes = 1ull << 30;  // incidents.max_bytes
  // Used when `dir` cannot be created (e.g. /var/lib not writable for this user).
  std::filesystem::path fallback_dir = "incidents";
};

struct RuleCounts {
  uint64_t written = 0;
  uint64_t failed = 0;
};

// For /metrics: flightrec_incidents_total{rule,status} and flightrec_incident_last_time_seconds.
struct IncidentStats {
  uint64_t written = 0;
  std::array<uint64_t, kFailureCauseCount> failed{};  // indexed by FailureCause
  uint64_t quarantined = 0;          // torn or corrupt files renamed to *.corrupt at start-up
  uint64_t temporaries_removed = 0;  // leftovers of a write interrupted by a crash
  uint64_t retention_deleted = 0;
  std::map<std::string, RuleCounts> by_rule;  // rules are bounded by the config
  int64_t last_fired_ns = 0;  // Unix ns of the newest incident written or attempted; 0 = none
  [[nodiscard]] uint64_t failed_total() const noexcept;
};

class IncidentStore {
 public:
  // Creates the directory (or the fallback), scans it and builds the index. Logs which directory
  // is used. Never throws for what it finds on disk.
  explicit IncidentStore(IncidentStoreOptions options);

  // Writer thread: writes one incident file atomically, then applies retention. Adds the
  // description to a copy of `metadata`. Returns the index entry (status written or failed).
  IncidentEntry write(
      const model::IncidentDescription& incident, const recording::Metadata& metadata,
      std::span<const std::shared_ptr<const store::Block>> blocks,
      std::span<const std::shared_ptr<const store::ProcessBlock>> process_blocks = {});

  // Any thread. Newest first.
  [[nodiscard]] std::vector<IncidentEntry> list() const;
  [[nodiscard]] std::optional<IncidentEntry> find(std::string_view id) const;
  // The file of a written incident known to the index; nullopt for unknown or failed ids. The id
  // is looked up, never joined into a path as given.
  [[nodiscard]] std::optional<std::filesystem::path> file_of(std::string_view id) const;
  [[nodiscard]] IncidentStats stats() const;
  [[nodiscard]] const std::filesystem::path& dir() const noexcept { return dir_; }

 private:
  void choose_directory();
  void recover();
  std::string reserve_id(const model::IncidentDescription& incident);
  IncidentEntry record_failure(IncidentEntry entry, FailureCause cause, std::string error);
  void apply_retention(const std::string& newest_id);
  [[nodiscard]] std::filesystem::path path_of(const std::string& id) const;

  IncidentStoreOptions options_;
  std::filesystem::path dir_;

  mutable std::mutex mutex_;
  std::map<std::string, IncidentEntry> written_;  // by id: oldest first
  std::map<std::string, IncidentEntry> failed_;   // kept to max_count, oldest dropped first
  std::set<std::string> writing_;                 // ids reserved by writes in progress
  std::set<std::string> undeletable_;  // retention could not delete them; logged once each
  uint64_t written_bytes_ = 0;
  IncidentStats stats_;
  // A cause is logged on its first failure, then not again until a write succeeds.
  std::array<bool, kFailureCauseCount> cause_logged_{};
};

}  // namespace flightrec::incidents
