#include "flightrec/trigger/oom/oom_kill_report.h"

#include "flightrec/common/whole_number.h"

namespace flightrec::trigger::oom {
namespace {

// "<digits>kB" as bytes.
std::optional<uint64_t> kib_bytes(std::string_view text) {
  if (!text.ends_with("kB")) return std::nullopt;
  const auto kib = whole_number<uint64_t>(text.substr(0, text.size() - 2));
  if (!kib || *kib > UINT64_MAX / 1024) return std::nullopt;
  return *kib * 1024;
}

// The value after `key` up to the next `end` character (or the end of `text`).
std::optional<std::string_view> field(std::string_view text, std::string_view key, char end) {
  const size_t at = text.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = text.substr(at + key.size());
  return rest.substr(0, rest.find(end));
}

// "memory: usage 65536kB, limit 65536kB, failcnt 0": a memory cgroup's usage and limit.
std::optional<uint64_t> cgroup_limit(std::string_view message) {
  if (!message.starts_with("memory: usage ")) return std::nullopt;
  const auto limit = field(message, ", limit ", ',');
  return limit ? kib_bytes(*limit) : std::nullopt;
}

// "oom-kill:constraint=...,oom_memcg=...,task_memcg=...,task=...,pid=...,uid=..."
std::optional<OomKillReport> summary(std::string_view message) {
  constexpr std::string_view kPrefix = "oom-kill:";
  if (!message.starts_with(kPrefix)) return std::nullopt;
  OomKillReport report;
  std::string_view rest = message.substr(kPrefix.size());
  while (!rest.empty()) {
    const std::string_view pair = rest.substr(0, rest.find(','));
    rest.remove_prefix(std::min(rest.size(), pair.size() + 1));
    const size_t equals = pair.find('=');
    if (equals == std::string_view::npos) continue;
    const std::string_view key = pair.substr(0, equals);
    const std::string_view value = pair.substr(equals + 1);
    if (key == "constraint") report.constraint = value;
    if (key == "oom_memcg") report.oom_cgroup = value;
    if (key == "task_memcg") report.victim_cgroup = value;
    if (key == "task") report.command = value;
    if (key == "pid") report.pid = whole_number<int32_t>(value).value_or(0);
    if (key == "uid") report.uid = whole_number<uint32_t>(value);
  }
  if (report.pid <= 0) return std::nullopt;
  return report;
}

// "... Killed process 468 (python3) total-vm:78064kB, anon-rss:65152kB, file-rss:6688kB,
// shmem-rss:0kB, UID:0 ...": the kill itself, with the victim's size.
std::optional<OomKillReport> kill_line(std::string_view message) {
  constexpr std::string_view kKilled = "Killed process ";
  // "Out of memory: ", "Memory cgroup out of memory: " or nothing (kernels before 4.19) in front.
  const size_t at = message.find(kKilled);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = message.substr(at + kKilled.size());
  const size_t open = rest.find(" (");
  const size_t close = rest.rfind(") total-vm:");
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    return std::nullopt;
  }
  OomKillReport report;
  const auto pid = whole_number<int32_t>(rest.substr(0, open));
  if (!pid || *pid <= 0) return std::nullopt;
  report.pid = *pid;
  report.command = rest.substr(open + 2, close - open - 2);
  const std::string_view sizes = rest.substr(close + 1);
  const auto size_of = [&](std::string_view key) {
    const auto text = field(sizes, key, ',');
    return text ? kib_bytes(*text) : std::nullopt;
  };
  const auto total_vm = size_of("total-vm:");
  const auto anon = size_of("anon-rss:");
  if (!total_vm || !anon) return std::nullopt;
  report.total_vm_bytes = *total_vm;
  report.anon_rss_bytes = *anon;
  report.file_rss_bytes = size_of("file-rss:").value_or(0);
  report.shmem_rss_bytes = size_of("shmem-rss:").value_or(0);
  if (const auto uid = field(sizes, "UID:", ' ')) report.uid = whole_number<uint32_t>(*uid);
  return report;
}

}  // namespace

std::optional<OomKillReport> OomKillParser::feed(std::string_view record) {
  // "prio,seq,usec,flags;message\n continuation lines"
  const size_t semicolon = record.find(';');
  if (semicolon == std::string_view::npos) return std::nullopt;
  const std::string_view header = record.substr(0, semicolon);
  std::string_view message = record.substr(semicolon + 1);
  message = message.substr(0, message.find('\n'));
  const size_t first = header.find(',');
  const size_t second = first == std::string_view::npos ? first : header.find(',', first + 1);
  const size_t third = second == std::string_view::npos ? second : header.find(',', second + 1);
  if (third == std::string_view::npos) return std::nullopt;
  const auto time_us = whole_number<int64_t>(header.substr(second + 1, third - second - 1));
  if (!time_us) return std::nullopt;

  if (const auto limit = cgroup_limit(message)) {
    limit_ = limit;
    return std::nullopt;
  }
  if (auto report = summary(message)) {
    summary_ = std::move(report);
    return std::nullopt;
  }
  auto kill = kill_line(message);
  if (!kill) return std::nullopt;
  kill->kernel_time_us = *time_us;
  if (summary_ && summary_->pid == kill->pid) {
    kill->constraint = std::move(summary_->constraint);
    kill->oom_cgroup = std::move(summary_->oom_cgroup);
    kill->victim_cgroup = std::move(summary_->victim_cgroup);
    if (!kill->uid) kill->uid = summary_->uid;
    if (kill->constraint == "CONSTRAINT_MEMCG") kill->cgroup_limit_bytes = limit_;
  }
  summary_.reset();
  limit_.reset();
  return kill;
}

}  // namespace flightrec::trigger::oom
