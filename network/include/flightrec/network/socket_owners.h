#pragma once
// Which process holds each socket: inode -> pid, from the "socket:[N]" links in
// <procfs>/<pid>/fd. Scanning every fd of every process is the expensive part of the sock_diag
// path (~2,000 processes x their fds), so the map is cached and rebuilt only when a socket with
// an unknown inode shows up, and then at most once per min_rescan_interval.
#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "flightrec/sampler/proc_root.h"

namespace flightrec::network {

class SocketOwners {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds kDefaultMinRescanInterval{1000};

  explicit SocketOwners(sampler::ProcRoot root,
                        std::chrono::milliseconds min_rescan_interval = kDefaultMinRescanInterval);

  // Rescans when one of `inodes` (the sockets of a dump) was never looked for and the last scan
  // is at least min_rescan_interval before `now`. Inode 0 (a socket its process already closed)
  // never triggers a scan.
  void refresh(std::span<const uint64_t> inodes, Clock::time_point now);

  // The pid holding `inode`, or 0 when no visible process does (or the cache does not know it
  // yet). A socket several processes share (fork, SCM_RIGHTS) goes to the lowest pid holding it
  // at the scan.
  [[nodiscard]] int32_t owner(uint64_t inode) const;

  // Drops every socket of `pid` (a process found gone) from the cache, so that the next refresh
  // rescans and finds whoever still holds them (a child it forked).
  void forget(int32_t pid);

  // True when a scan has looked for `inode`: its owner (a pid, or none) will not change before
  // the next rescan. False for an inode the cache has never heard of.
  [[nodiscard]] bool settled(uint64_t inode) const;

  [[nodiscard]] uint64_t scans() const noexcept { return scans_; }
  // Why the last scan was incomplete ("" when it was not), e.g. an unreadable procfs.
  [[nodiscard]] const std::string& last_error() const noexcept { return last_error_; }

 private:
  void rescan(std::span<const uint64_t> inodes);

  sampler::ProcRoot root_;
  std::chrono::milliseconds min_rescan_interval_;
  std::unordered_map<uint64_t, int32_t> owners_;
  // Inodes the last scan looked for and found in no process: they do not trigger rescans.
  std::unordered_set<uint64_t> unowned_;
  Clock::time_point last_scan_{};
  uint64_t scans_ = 0;
  std::string last_error_;
};

}  // namespace flightrec::network
