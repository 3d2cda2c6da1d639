#include "flightrec/exporter/metrics/thread_cpu.h"

#include <charconv>
#include <fstream>
#include <string>
#include <system_error>

namespace flightrec::exporter::metrics {

namespace {

// One line of a small procfs file; "" when it cannot be read (the thread exited meanwhile).
std::string first_line(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

bool parse_tid(const std::string& name, int64_t& tid) {
  const char* end = name.data() + name.size();
  auto [ptr, ec] = std::from_chars(name.data(), end, tid);
  return ec == std::errc() && ptr == end;
}

}  // namespace

ThreadGroup thread_group_of(std::string_view comm) {
  if (comm == "sampler") return ThreadGroup::sampler;
  if (comm == "recorder") return ThreadGroup::recorder;
  if (comm == "processes") return ThreadGroup::processes;
  if (comm.starts_with("civetweb")) return ThreadGroup::http;
  return ThreadGroup::other;
}

std::string_view thread_group_name(ThreadGroup group) {
  switch (group) {
    case ThreadGroup::sampler:
      return "sampler";
    case ThreadGroup::recorder:
      return "recorder";
    case ThreadGroup::processes:
      return "processes";
    case ThreadGroup::http:
      return "http";
    case ThreadGroup::other:
      break;
  }
  return "other";
}

bool parse_schedstat_ns(std::string_view text, uint64_t& ns) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, ns);
  return ec == std::errc() && ptr != text.data() && (ptr == end || *ptr == ' ' || *ptr == '\n');
}

bool ThreadCpuReader::read(Totals& out) {
  std::error_code ec;
  std::filesystem::directory_iterator tasks(procfs_ / "self" / "task", ec);
  std::lock_guard lock(mutex_);
  if (ec) {
    out = last_;
    return false;
  }
  std::unordered_map<int64_t, Seen> now;
  for (const auto& task : tasks) {
    int64_t tid = 0;
    uint64_t ns = 0;
    if (!parse_tid(task.path().filename().string(), tid)) continue;
    if (!parse_schedstat_ns(first_line(task.path() / "schedstat"), ns)) continue;
    now[tid] = {.group = thread_group_of(first_line(task.path() / "comm")), .ns = ns};
  }
  // A thread gone, or a tid reused by a newer thread (less time, or another name): the old
  // thread's last value moves to its group's accumulator.
  for (const auto& [tid, before] : live_) {
    const auto it = now.find(tid);
    if (it == now.end() || it->second.ns < before.ns || it->second.group != before.group) {
      exited_[static_cast<size_t>(before.group)] += before.ns;
    }
  }
  live_ = std::move(now);
  Totals totals = exited_;
  for (const auto& [tid, seen] : live_) totals[static_cast<size_t>(seen.group)] += seen.ns;
  // A thread renamed between reads moves its time between groups; keep each group monotonic.
  for (size_t g = 0; g < kThreadGroups; ++g) totals[g] = std::max(totals[g], last_[g]);
  last_ = totals;
  out = totals;
  return true;
}

}  // namespace flightrec::exporter::metrics
