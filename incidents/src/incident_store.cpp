#include "flightrec/incidents/incident_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <system_error>

#include "flightrec/common/log.h"
#include "flightrec/incidents/incident_file.h"
#include "flightrec/incidents/incident_id.h"
#include "flightrec/recording/recording_file.h"

namespace flightrec::incidents {

namespace fs = std::filesystem;

uint64_t IncidentStats::failed_total() const noexcept {
  uint64_t total = 0;
  for (const uint64_t count : failed) total += count;
  return total;
}

IncidentStore::IncidentStore(IncidentStoreOptions options) : options_(std::move(options)) {
  choose_directory();
  start_scan();
}

namespace {

// Why `dir` cannot be the incident directory, saying what is in its place when something is:
// create_directories' own error for a dangling link ("File exists") or a file ("Not a directory")
// does not.
std::string unusable_directory_reason(const fs::path& dir, const std::error_code& error) {
  std::error_code ignored;
  const fs::file_status entry = fs::symlink_status(dir, ignored);
  if (entry.type() == fs::file_type::symlink) {
    const std::string target = fs::read_symlink(dir, ignored).string();
    const fs::file_status points_to = fs::status(dir, ignored);
    if (points_to.type() == fs::file_type::not_found) {
      return "a dangling symbolic link: its target " + target + " does not exist";
    }
    if (!fs::is_directory(points_to)) {
      return "a symbolic link to " + target + ", which is not a directory";
    }
  } else if (fs::is_regular_file(entry)) {
    return "a regular file, not a directory";
  } else if (fs::exists(entry) && !fs::is_directory(entry)) {
    return "not a directory (a special file)";
  }
  return error ? error.message() : "not a directory";
}

// An existing directory this user cannot write to is found now rather than at the first incident
// (a daemon moved from root to a service user, the directory still root's).
void warn_unless_writable(const fs::path& dir) {
  if (::faccessat(AT_FDCWD, dir.c_str(), W_OK | X_OK, AT_EACCESS) == 0) return;
  const int error = errno;
  log::warn("the incident directory is not writable by this user; incidents will fail until it is",
            {{"dir", dir.string()},
             {"error", std::strerror(error)},
             {"uid", std::to_string(::geteuid())}});
}

}  // namespace

void IncidentStore::choose_directory() {
  std::error_code error;
  fs::create_directories(options_.dir, error);
  if (!error && fs::is_directory(options_.dir, error)) {
    dir_ = options_.dir;
    log::info("incident directory", {{"dir", dir_.string()}});
    warn_unless_writable(dir_);
    return;
  }
  const std::string why = unusable_directory_reason(options_.dir, error);
  std::error_code fallback_error;
  fs::create_directories(options_.fallback_dir, fallback_error);
  if (!fallback_error && fs::is_directory(options_.fallback_dir, fallback_error)) {
    dir_ = options_.fallback_dir;
    log::warn("incident directory cannot be created, using the fallback",
              {{"configured", options_.dir.string()}, {"error", why}, {"dir", dir_.string()}});
    warn_unless_writable(dir_);
    return;
  }
  // Keep the configured directory: every write will fail (counted) until it can be created.
  dir_ = options_.dir;
  log::error(
      "no incident directory can be created; incidents will fail until one can",
      {{"dir", dir_.string()},
       {"error", why},
       {"fallback", options_.fallback_dir.string()},
       {"fallback_error", unusable_directory_reason(options_.fallback_dir, fallback_error)}});
}

fs::path IncidentStore::path_of(const std::string& id) const {
  return dir_ / (id + std::string(kIncidentExtension));
}

std::string IncidentStore::reserve_id(const model::IncidentDescription& incident) {
  const std::lock_guard lock(mutex_);
  for (int attempt = 1;; ++attempt) {
    std::string id = make_incident_id(incident.fired_at_ns, incident.rule, attempt);
    std::error_code error;
    if (written_.contains(id) || failed_.contains(id) || writing_.contains(id) ||
        unverified_.contains(id) || fs::exists(path_of(id), error)) {
      continue;
    }
    writing_.insert(id);
    return id;
  }
}

IncidentEntry IncidentStore::write(
    const model::IncidentDescription& incident, const recording::Metadata& metadata,
    std::span<const std::shared_ptr<const store::Block>> blocks,
    std::span<const std::shared_ptr<const store::ProcessBlock>> process_blocks,
    std::span<const std::shared_ptr<const store::StoredContainerFrame>> container_frames) {
  IncidentEntry entry{.id = reserve_id(incident), .incident = incident};
  const fs::path path = path_of(entry.id);
  std::optional<FailureCause> cause;
  std::string error;
  try {
    std::error_code dir_error;
    fs::create_directories(dir_, dir_error);  // again: it may have been removed since start-up
    if (dir_error) {
      cause = cause_of_errno(dir_error.value());
      error = dir_.string() + ": cannot create the directory: " + dir_error.message();
    } else {
      recording::Metadata with_fields = metadata;
      model::encode_incident(incident, with_fields.extra);
      const auto result = recording::write_recording_atomically(path, with_fields, blocks,
                                                                process_blocks, container_frames);
      if (result.ok()) {
        entry.bytes = fs::file_size(path);
      } else {
        cause = cause_of_message(result.error());
        error = result.error();
      }
    }
  } catch (const std::exception& e) {
    cause = FailureCause::other;
    error = path.string() + ": " + e.what();
  }
  if (cause) {
    // A failure after the rename (directory fsync) leaves a file the index will not list.
    std::error_code ignored;
    fs::remove(path, ignored);
  }

  std::unique_lock lock(mutex_);
  writing_.erase(entry.id);
  stats_.last_fired_ns = std::max(stats_.last_fired_ns, incident.fired_at_ns);
  if (cause) return record_failure(std::move(entry), *cause, std::move(error));
  ++stats_.written;
  RuleCounts& rule_counts = stats_.by_rule[incident.rule];
  ++rule_counts.written;
  if (incident.fired_at_ns >= rule_counts.last_written_fired_ns) {
    rule_counts.last_written_id = entry.id;
    rule_counts.last_written_fired_ns = incident.fired_at_ns;
  }
  cause_logged_.fill(false);  // the failure episode, if any, is over
  written_bytes_ += entry.bytes;
  written_.emplace(entry.id, entry);
  log::info("incident written", {{"id", entry.id},
                                 {"rule", incident.rule},
                                 {"bytes", std::to_string(entry.bytes)},
                                 {"file", path.string()}});
  apply_retention(lock, entry.id);
  return entry;
}

StoredRewrite IncidentStore::rewrite(const std::string& id, const IncidentRewrite& rewrite) {
  StoredRewrite outcome;
  {
    const std::lock_guard lock(mutex_);
    const auto it = written_.find(id);
    if (it == written_.end() || it->second.status != IncidentStatus::written) return outcome;
    rewriting_.insert(id);
  }
  outcome.found = true;
  const fs::path path = path_of(id);
  try {
    outcome.result = rewrite_incident_file(path, rewrite);
  } catch (const std::exception& e) {
    outcome.result = Error{path.string() + ": cannot be rewritten, left as it was: " + e.what()};
  }
  std::unique_lock lock(mutex_);
  rewriting_.erase(id);
  IncidentEntry& entry = written_.at(id);
  if (!outcome.result.ok()) {
    log::error("cannot rewrite an incident file; it stays as it was",
               {{"id", id}, {"error", outcome.result.error()}});
    outcome.entry = entry;
    return outcome;
  }
  written_bytes_ = written_bytes_ - entry.bytes + outcome.result->bytes;
  entry.bytes = outcome.result->bytes;
  entry.incident = rewrite.incident;
  outcome.entry = entry;
  log::info("incident rewritten",
            {{"id", id},
             {"bytes", std::to_string(entry.bytes)},
             {"appended_frames", std::to_string(outcome.result->appended_frames)},
             {"appended_process_frames", std::to_string(outcome.result->appended_process_frames)},
             {"file", path.string()}});
  apply_retention(lock, id);
  return outcome;
}

IncidentEntry IncidentStore::record_failure(IncidentEntry entry, FailureCause cause,
                                            std::string error) {
  entry.status = IncidentStatus::failed;
  entry.cause = cause;
  entry.error = std::move(error);
  const auto index = static_cast<size_t>(cause);
  ++stats_.failed[index];
  ++stats_.by_rule[entry.incident.rule].failed;
  if (!cause_logged_[index]) {
    cause_logged_[index] = true;
    log::error(
        "cannot write an incident file; further failures with this cause are only counted",
        {{"cause", std::string(cause_name(cause))}, {"id", entry.id}, {"error", entry.error}});
  }
  failed_.emplace(entry.id, entry);
  while (failed_.size() > options_.max_count) failed_.erase(failed_.begin());
  return entry;
}

void IncidentStore::set_bounds(uint64_t max_count, uint64_t max_bytes) {
  std::unique_lock lock(mutex_);
  options_.max_count = max_count;
  options_.max_bytes = max_bytes;
  apply_retention(lock, {});  // no incident is new here: the oldest go first
}

bool IncidentStore::over_bounds() const {
  // What is on disk: files the start-up scan has not verified yet count too.
  return written_.size() + unverified_.size() > options_.max_count ||
         written_bytes_ + unverified_bytes_ > options_.max_bytes;
}

std::optional<std::string> IncidentStore::oldest_deletable(
    const std::string& newest_id, const std::set<std::string>& kept) const {
  // A file not verified yet goes through verification first: its class is in its metadata.
  if (!unverified_.empty()) return unverified_.begin()->first;
  const auto oldest = [&](auto&& wanted) -> std::optional<std::string> {
    for (const auto& [id, entry] : written_) {
      if (id != newest_id && !kept.contains(id) && !rewriting_.contains(id) && wanted(entry)) {
        return id;
      }
    }
    return std::nullopt;
  };
  // Manual incidents go before rule-fired ones, so a flood of manual requests only displaces
  // itself.
  if (auto manual = oldest([](const IncidentEntry& entry) { return entry.incident.is_manual(); })) {
    return manual;
  }
  const auto newest = written_.find(newest_id);
  if (newest != written_.end() && newest->second.incident.is_manual()) {
    // Only rule-fired incidents are left to delete: the new manual one is not kept instead.
    if (kept.contains(newest_id)) return std::nullopt;
    return newest_id;
  }
  return oldest([](const IncidentEntry&) { return true; });
}

void IncidentStore::apply_retention(std::unique_lock<std::mutex>& lock,
                                    const std::string& newest_id) {
  // The oldest go first, manual incidents before rule-fired ones (oldest_deletable). A rule-fired
  // incident just written is never the one deleted, even when it alone exceeds max_bytes; a manual
  // one is, when only rule-fired incidents are left to make room. A file that cannot be deleted
  // (immutable, kept as evidence) is skipped but still counted, so the next oldest go instead and
  // the directory stays within the bounds; it is tried again on every round, so that it goes as
  // soon as it can. A file not verified yet is verified first (without the lock: it may take a
  // while), so that a corrupt one is quarantined rather than deleted, as it would have been had the
  // scan reached it first.
  std::set<std::string> kept;
  while (over_bounds()) {
    const auto victim = oldest_deletable(newest_id, kept);
    if (!victim) break;
    if (*victim == newest_id) {
      log::warn(
          "manual incident not kept: the store is at its bounds with rule-fired incidents, "
          "which a manual one never displaces",
          {{"id", newest_id}});
    }
    if (unverified_.contains(*victim)) {
      lock.unlock();
      FileCheck check = check_incident_file(path_of(*victim));
      lock.lock();
      settle(*victim, std::move(check));
      continue;
    }
    if (!delete_for_retention(*victim)) kept.insert(*victim);
  }
}

bool IncidentStore::delete_for_retention(const std::string& id) {
  const auto it = written_.find(id);
  std::error_code error;
  fs::remove(path_of(id), error);
  if (error) {
    if (undeletable_.insert(id).second) {
      log::warn(
          "cannot delete an incident for retention; it stays listed and the next oldest go "
          "instead (not logged again for this file)",
          {{"file", path_of(id).string()}, {"error", error.message()}});
    }
    return false;
  }
  undeletable_.erase(id);
  log::info("incident deleted by retention",
            {{"id", id},
             {"count", std::to_string(written_.size() + unverified_.size())},
             {"bytes", std::to_string(written_bytes_ + unverified_bytes_)}});
  written_bytes_ -= it->second.bytes;
  ++stats_.retention_deleted;
  written_.erase(it);
  return true;
}

std::vector<IncidentEntry> IncidentStore::list() const {
  const std::lock_guard lock(mutex_);
  std::vector<IncidentEntry> entries;
  entries.reserve(written_.size() + failed_.size() + unverified_.size());
  for (const auto& [id, entry] : written_) entries.push_back(entry);
  for (const auto& [id, entry] : failed_) entries.push_back(entry);
  for (const auto& [id, bytes] : unverified_) {
    entries.push_back({.id = id, .bytes = bytes, .status = IncidentStatus::verifying});
  }
  std::sort(entries.begin(), entries.end(),
            [](const IncidentEntry& a, const IncidentEntry& b) { return a.id > b.id; });
  return entries;
}

std::optional<IncidentEntry> IncidentStore::find(std::string_view id) const {
  if (!is_valid_incident_id(id)) return std::nullopt;
  const std::lock_guard lock(mutex_);
  const std::string key(id);
  if (const auto it = written_.find(key); it != written_.end()) return it->second;
  if (const auto it = failed_.find(key); it != failed_.end()) return it->second;
  if (const auto it = unverified_.find(key); it != unverified_.end()) {
    return IncidentEntry{.id = key, .bytes = it->second, .status = IncidentStatus::verifying};
  }
  return std::nullopt;
}

std::optional<fs::path> IncidentStore::file_of(std::string_view id) const {
  if (!is_valid_incident_id(id)) return std::nullopt;
  const std::lock_guard lock(mutex_);
  const auto it = written_.find(std::string(id));
  if (it == written_.end()) return std::nullopt;
  return path_of(it->first);
}

IncidentStats IncidentStore::stats() const {
  const std::lock_guard lock(mutex_);
  IncidentStats stats = stats_;
  stats.unverified = unverified_.size();
  return stats;
}

}  // namespace flightrec::incidents
