// IncidentStore's start-up scan: the directory is listed at once (names and sizes), leftover
// temporaries are removed, and every incident file is then read through and checked, newest
// first, either in the constructor or on the store's own low-priority thread. See
// docs/INCIDENTS.md, "Start-up scan and quarantine".
#include <pthread.h>

#include <algorithm>
#include <cstdio>
#include <system_error>

#include "flightrec/common/limited_warning.h"
#include "flightrec/common/log.h"
#include "flightrec/common/thread_priority.h"
#include "flightrec/incidents/incident_store.h"

namespace flightrec::incidents {
namespace {

namespace fs = std::filesystem;

// The verification is a one-off batch job: it yields to the workload and to the sampler; if the
// kernel refuses the lower priority, the scan just runs at normal priority.
void become_scan_thread() {
  pthread_setname_np(pthread_self(), "incident-scan");
  static_cast<void>(priority::make_calling_thread_lowest());
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", seconds);
  return text;
}

}  // namespace

void IncidentStore::start_scan() {
  scan_started_ = std::chrono::steady_clock::now();
  auto listed = list_incident_directory(dir_);
  if (!listed) {
    log::warn("cannot scan the incident directory", {{"error", listed.error()}});
    return;
  }
  DirectoryListing& listing = *listed;
  // Before any write of ours can start, so every temporary here is a crash's leftover.
  std::error_code error;
  for (const auto& temp : listing.temporaries) {
    if (fs::remove(temp, error)) {
      ++stats_.temporaries_removed;
      log::info("removed a temporary file left by an interrupted incident write",
                {{"file", temp.string()}});
    } else {
      log::warn("cannot remove a leftover temporary incident file",
                {{"file", temp.string()}, {"error", error.message()}});
    }
  }
  for (const auto& ignored : listing.ignored) {
    log::info("ignoring a file whose name is not an incident id", {{"file", ignored.string()}});
  }
  // Left as they are, never followed (docs/INCIDENTS.md): each named once, the first few by name
  // when a directory holds many (the counted rest is written when the warning goes out of scope).
  {
    log::LimitedWarning skipped_warning(
        "skipping an entry named like an incident that is not a regular file");
    for (const auto& skipped : listing.skipped) {
      skipped_warning.note(skipped.path.string() + " (" + skipped.error + ")");
    }
  }
  for (auto& stored : listing.incidents) {
    unverified_bytes_ += stored.bytes;
    unverified_.emplace(std::move(stored.id), stored.bytes);
  }
  scan_ = {.running = true, .total = unverified_.size()};
  log::info("incident scan started",
            {{"files", std::to_string(unverified_.size())},
             {"bytes", std::to_string(unverified_bytes_)},
             {"mode", options_.verify_in_background ? "background" : "inline"}});
  if (options_.verify_in_background) {
    scanner_ = std::thread([this] {
      become_scan_thread();
      verify_stored();
    });
  } else {
    verify_stored();
  }
}

void IncidentStore::verify_stored() {
  std::unique_lock lock(mutex_);
  while (!unverified_.empty() && !stopping_) {
    // Newest first: after a crash the latest incident is the one an operator wants to read.
    const std::string id = unverified_.rbegin()->first;
    lock.unlock();
    if (options_.before_verify) options_.before_verify(id);
    FileCheck check = check_incident_file(path_of(id), &stopping_);
    lock.lock();
    if (stopping_) break;  // a cancelled check says nothing about the file
    settle(id, std::move(check));
  }
  finish_scan(lock);
}

void IncidentStore::finish_scan(std::unique_lock<std::mutex>& lock) {
  // As before any write: the bounds may have been lowered since the files were written.
  if (!stopping_) apply_retention(lock, {});
  scan_.running = false;
  scan_.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - scan_started_).count();
  log::info("incident scan finished", {{"files", std::to_string(scan_.total)},
                                       {"verified", std::to_string(scan_.verified)},
                                       {"indexed", std::to_string(written_.size())},
                                       {"quarantined", std::to_string(stats_.quarantined)},
                                       {"unreadable", std::to_string(stats_.unreadable)},
                                       {"seconds", seconds_text(scan_.seconds)},
                                       {"stopped", stopping_ ? "true" : "false"}});
  scan_finished_.notify_all();
}

void IncidentStore::settle(const std::string& id, FileCheck check) {
  const auto it = unverified_.find(id);
  if (it == unverified_.end()) return;  // settled by the other verifier (scan or retention)
  const uint64_t listed_bytes = it->second;
  unverified_bytes_ -= listed_bytes;
  unverified_.erase(it);
  ++scan_.verified;
  const fs::path path = path_of(id);
  switch (check.state) {
    case FileState::valid:
      written_bytes_ += check.bytes;
      stats_.last_fired_ns = std::max(stats_.last_fired_ns, check.incident.fired_at_ns);
      written_.emplace(
          id, IncidentEntry{.id = id, .incident = std::move(check.incident), .bytes = check.bytes});
      return;
    case FileState::gone:
      log::info("an incident file went away before it was verified",
                {{"file", path.string()}, {"error", check.error}});
      return;
    case FileState::unreadable:
      keep_unreadable(id, listed_bytes, check.error);
      return;
    case FileState::not_regular:  // replaced since it was listed: left alone, as at listing
      log::warn("skipping an entry named like an incident that is not a regular file",
                {{"file", path.string()}, {"error", check.error}});
      return;
    case FileState::corrupt:
    case FileState::cancelled:  // never settled: the verifiers stop first
      break;
  }
  std::error_code error;
  if (!fs::exists(fs::symlink_status(path, error))) {
    log::info("an incident file went away before it was verified", {{"file", path.string()}});
    return;
  }
  quarantine(path, check.error);
}

void IncidentStore::keep_unreadable(const std::string& id, uint64_t bytes,
                                    const std::string& reader_error) {
  // Nothing is known of its content, so it is neither quarantined nor deleted as corrupt: it stays
  // on disk and in the index, counts toward the bounds (retention may delete it as the oldest, as
  // a rule-fired incident), and a start that can read it indexes it as usual.
  const fs::path path = path_of(id);
  ++stats_.unreadable;
  written_bytes_ += bytes;
  written_.emplace(id, IncidentEntry{.id = id,
                                     .bytes = bytes,
                                     .status = IncidentStatus::unreadable,
                                     .error = path.string() + ": " + reader_error});
  log::warn("cannot read a stored incident file; it is left as it is and listed as unreadable",
            {{"file", path.string()}, {"error", reader_error}});
}

void IncidentStore::quarantine(const fs::path& path, const std::string& reader_error) {
  std::error_code error;
  fs::path aside = path.string() + ".corrupt";
  for (int n = 2; fs::exists(aside, error); ++n) {
    aside = path.string() + ".corrupt." + std::to_string(n);
  }
  fs::rename(path, aside, error);
  if (error) {
    log::error(
        "cannot quarantine a torn or corrupt incident file",
        {{"file", path.string()}, {"error", reader_error}, {"rename_error", error.message()}});
    return;
  }
  ++stats_.quarantined;
  log::warn("quarantined a torn or corrupt incident file",
            {{"file", path.string()}, {"error", reader_error}, {"moved_to", aside.string()}});
}

ScanProgress IncidentStore::scan_progress() const {
  const std::lock_guard lock(mutex_);
  return scan_;
}

void IncidentStore::wait_for_scan() const {
  std::unique_lock lock(mutex_);
  scan_finished_.wait(lock, [this] { return !scan_.running; });
}

IncidentStore::~IncidentStore() {
  stopping_ = true;
  if (scanner_.joinable()) scanner_.join();
}

}  // namespace flightrec::incidents
