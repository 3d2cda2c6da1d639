#pragma once
// What the kernel log says about an OOM kill, read from /dev/kmsg records: who was killed (pid,
// command, uid, its memory cgroup), why (the constraint, and for a cgroup OOM that cgroup and its
// limit) and how big it was (total-vm and RSS split). The kernel writes, for each kill:
//   memory: usage 65536kB, limit 65536kB, failcnt 0            (a memory cgroup's OOM only)
//   oom-kill:constraint=CONSTRAINT_MEMCG,...,oom_memcg=/a,task_memcg=/a/b,task=python3,pid=468,uid=0
//   Memory cgroup out of memory: Killed process 468 (python3) total-vm:78064kB, anon-rss:65152kB,
//     file-rss:6688kB, shmem-rss:0kB, UID:0 pgtables:196kB oom_score_adj:0
// ("Out of memory: Killed process ..." for a system-wide OOM). The report completes at the
// "Killed process" line; the other two are optional (older kernels print no oom-kill: line).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace flightrec::trigger::oom {

struct OomKillReport {
  int64_t kernel_time_us = 0;  // the record's timestamp: µs since boot on the kernel log clock
  int32_t pid = 0;
  std::string command;  // the task's comm
  std::optional<uint32_t> uid;
  std::string constraint;     // CONSTRAINT_NONE (system), CONSTRAINT_MEMCG (a cgroup's limit), ...
  std::string oom_cgroup;     // the memory cgroup whose limit was hit ("" for a system OOM)
  std::string victim_cgroup;  // the victim's memory cgroup
  std::optional<uint64_t> cgroup_limit_bytes;  // that limit, for a cgroup OOM
  uint64_t total_vm_bytes = 0;
  uint64_t anon_rss_bytes = 0;
  uint64_t file_rss_bytes = 0;
  uint64_t shmem_rss_bytes = 0;
  [[nodiscard]] uint64_t rss_bytes() const noexcept {
    return anon_rss_bytes + file_rss_bytes + shmem_rss_bytes;
  }
  bool operator==(const OomKillReport&) const = default;
};

// Feeds /dev/kmsg records in order, one record ("prio,seq,usec,flags;message", a trailing
// newline and continuation lines allowed) per call; returns a report when the record completes
// one. Records about anything else, and malformed ones, are passed over.
class OomKillParser {
 public:
  std::optional<OomKillReport> feed(std::string_view record);

 private:
  std::optional<uint64_t> limit_;         // the last "memory: usage ..., limit ..." line's
  std::optional<OomKillReport> summary_;  // the last "oom-kill:" line, until its kill line
};

}  // namespace flightrec::trigger::oom
