#pragma once
// The incident directory: start-up scan (quarantine of torn or corrupt files, removal of leftover
// temporaries), atomic writes, count and byte retention, and an index that HTTP threads read while
// the writer thread writes. Nothing here throws once constructed: a write that fails is an index
// entry with status "failed", a counter and (once per cause) a log line. See docs/INCIDENTS.md.
//
// The scan lists names and sizes at once; reading every file through (the costly part: ~30 s for
// 1 GiB) can run on a thread of the store's own, so that a daemon samples and serves at once.
// Until a file is verified it is listed as "verifying", counts toward the retention bounds (it is
// on disk) and is not served; retention verifies a file before deleting it, so a corrupt one is
// still quarantined, never deleted.
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "flightrec/incidents/incident.h"
#include "flightrec/incidents/incident_file.h"
#include "flightrec/incidents/incident_rewrite.h"
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
  // Verify the stored files on a thread of the store's own (the daemon) rather than in the
  // constructor (tools and tests that want the whole index at once).
  bool verify_in_background = false;
  // Called on the verifying thread before each stored file is checked, with its id: tests hold the
  // scan with it to act while it runs.
  std::function<void(const std::string& id)> before_verify;
};

// The start-up verification of the files found in the directory.
struct ScanProgress {
  bool running = false;
  uint64_t total = 0;     // incident files found at start-up
  uint64_t verified = 0;  // of those, checked (then indexed, unreadable, quarantined, or gone)
  double seconds = 0;     // how long it took, once finished
};

struct RuleCounts {
  uint64_t written = 0;
  uint64_t failed = 0;
  // The newest incident of the rule written since start (its id and when it fired, Unix ns), for
  // the exemplar of flightrec_incidents_total that links a step of the counter to its recording.
  std::string last_written_id;
  int64_t last_written_fired_ns = 0;
};

// For /metrics: flightrec_incidents_total{rule,status} and flightrec_incident_last_time_seconds.
struct IncidentStats {
  uint64_t written = 0;
  std::array<uint64_t, kFailureCauseCount> failed{};  // indexed by FailureCause
  uint64_t quarantined = 0;          // torn or corrupt files renamed to *.corrupt at start-up
  uint64_t unreadable = 0;           // files found at start-up that could not be read, left as is
  uint64_t temporaries_removed = 0;  // leftovers of a write interrupted by a crash
  uint64_t retention_deleted = 0;
  uint64_t unverified = 0;  // files found at start-up that the scan has not verified yet
  std::map<std::string, RuleCounts> by_rule;  // rules are bounded by the config
  int64_t last_fired_ns = 0;  // Unix ns of the newest incident written or attempted; 0 = none
  [[nodiscard]] uint64_t failed_total() const noexcept;
};

// What IncidentStore::rewrite did. Not a Result: the index entry is wanted whether the rewrite
// worked or not.
struct StoredRewrite {
  // false: `id` is not a written incident (deleted by retention, failed, unreadable)
  bool found = false;
  // When found: the new file, or the error (the old file stays as it was).
  Result<Rewritten> result = Error{"not a written incident"};
  IncidentEntry entry;  // when found: the index entry after the rewrite
};

class IncidentStore {
 public:
  // Creates the directory (or the fallback), scans it and builds the index (or starts the thread
  // that does: options.verify_in_background). Logs which directory is used. Never throws for what
  // it finds on disk.
  explicit IncidentStore(IncidentStoreOptions options);
  // Stops the verification (between two blocks of a file) and waits for its thread.
  ~IncidentStore();
  IncidentStore(const IncidentStore&) = delete;
  IncidentStore& operator=(const IncidentStore&) = delete;

  // Writer thread: writes one incident file atomically, then applies retention. Adds the
  // description to a copy of `metadata`. Returns the index entry (status written or failed).
  IncidentEntry write(
      const model::IncidentDescription& incident, const recording::Metadata& metadata,
      std::span<const std::shared_ptr<const store::Block>> blocks,
      std::span<const std::shared_ptr<const store::ProcessBlock>> process_blocks = {},
      std::span<const std::shared_ptr<const store::StoredContainerFrame>> container_frames = {});

  // Writer thread: rewrites the written incident `id` (incident_rewrite.h), then updates its index
  // entry (description, bytes) and applies retention, as the file may have grown. Retention does
  // not delete the file while it is being rewritten. Never throws.
  StoredRewrite rewrite(const std::string& id, const IncidentRewrite& rewrite);

  // Any thread (a configuration reload): new retention bounds, applied at once.
  void set_bounds(uint64_t max_count, uint64_t max_bytes);

  // Any thread. Newest first; files not verified yet have status "verifying", their id and size.
  [[nodiscard]] std::vector<IncidentEntry> list() const;
  [[nodiscard]] std::optional<IncidentEntry> find(std::string_view id) const;
  // The file of an incident on disk known to the index (written, or unreadable at start-up);
  // nullopt for unknown or failed ids. The id is looked up, never joined into a path as given.
  [[nodiscard]] std::optional<std::filesystem::path> file_of(std::string_view id) const;
  [[nodiscard]] IncidentStats stats() const;
  [[nodiscard]] ScanProgress scan_progress() const;
  // Blocks until the start-up verification has finished (at once when it ran in the constructor).
  void wait_for_scan() const;
  [[nodiscard]] const std::filesystem::path& dir() const noexcept { return dir_; }

 private:
  void choose_directory();
  // Start-up scan (store_scan.cpp): list, remove temporaries, then verify (here or on scanner_).
  void start_scan();
  void verify_stored();
  void finish_scan(std::unique_lock<std::mutex>& lock);
  // With the lock held: index a checked file, or quarantine it, or keep it as unreadable; nothing
  // if already settled.
  void settle(const std::string& id, FileCheck check);
  void keep_unreadable(const std::string& id, uint64_t bytes, const std::string& reader_error);
  void quarantine(const std::filesystem::path& path, const std::string& error);

  std::string reserve_id(const model::IncidentDescription& incident);
  IncidentEntry record_failure(IncidentEntry entry, FailureCause cause, std::string error);
  // With the lock held; releases it while verifying a file it is about to delete.
  void apply_retention(std::unique_lock<std::mutex>& lock, const std::string& newest_id);
  [[nodiscard]] bool over_bounds() const;
  [[nodiscard]] std::optional<std::string> oldest_deletable(
      const std::string& newest_id, const std::set<std::string>& kept) const;
  bool delete_for_retention(const std::string& id);
  [[nodiscard]] std::filesystem::path path_of(const std::string& id) const;

  IncidentStoreOptions options_;
  std::filesystem::path dir_;

  mutable std::mutex mutex_;
  // Files on disk, by id (oldest first): written, or found unreadable at start-up.
  std::map<std::string, IncidentEntry> written_;
  std::map<std::string, IncidentEntry> failed_;  // kept to max_count, oldest dropped first
  std::set<std::string> writing_;                // ids reserved by writes in progress
  std::set<std::string> rewriting_;              // written ids being rewritten: not deleted
  std::set<std::string> undeletable_;  // retention could not delete them; logged once each
  uint64_t written_bytes_ = 0;
  std::map<std::string, uint64_t> unverified_;  // found at start-up, not checked yet: id -> bytes
  uint64_t unverified_bytes_ = 0;
  IncidentStats stats_;
  // A cause is logged on its first failure, then not again until a write succeeds.
  std::array<bool, kFailureCauseCount> cause_logged_{};

  ScanProgress scan_;
  std::chrono::steady_clock::time_point scan_started_;
  mutable std::condition_variable scan_finished_;
  std::atomic<bool> stopping_{false};
  std::thread scanner_;  // verify_in_background only
};

}  // namespace flightrec::incidents
