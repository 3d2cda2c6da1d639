#include "flightrec/exporter/metrics/thread_cpu.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <string>
#include <system_error>
#include <vector>

#include "flightrec/common/fd.h"

namespace flightrec::exporter::metrics {

namespace {

// The start of a small procfs file from offset 0, newline dropped; "" when it cannot be read (the
// thread exited meanwhile).
std::string head_of(int fd) {
  std::array<char, 128> buf{};
  const ssize_t n = ::pread(fd, buf.data(), buf.size(), 0);
  if (n <= 0) return {};
  std::string text(buf.data(), static_cast<size_t>(n));
  if (const auto end = text.find('\n'); end != std::string::npos) text.resize(end);
  return text;
}

Fd open_file(const std::filesystem::path& path) {
  return Fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
}

std::string head_of(const std::filesystem::path& path) {
  const Fd fd = open_file(path);
  return fd ? head_of(fd.get()) : std::string();
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

bool parse_schedstat_ns(std::string_view text, uint64_t& ns) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, ns);
  return ec == std::errc() && ptr != text.data() && (ptr == end || *ptr == ' ' || *ptr == '\n');
}

bool ThreadCpuReader::refresh(int64_t tid, Thread& thread) const {
  uint64_t ns = 0;
  // A tid reused by a newer thread reads as gone too: the open file is the old thread's.
  if (!parse_schedstat_ns(head_of(thread.schedstat.get()), ns) || ns < thread.ns) return false;
  thread.ns = ns;
  if (thread.group == ThreadGroup::other) {
    thread.group = thread_group_of(head_of(task_dir() / std::to_string(tid) / "comm"));
  }
  return true;
}

void ThreadCpuReader::add(int64_t tid) {
  const auto dir = task_dir() / std::to_string(tid);
  Thread thread{.schedstat = open_file(dir / "schedstat")};
  if (!thread.schedstat || !parse_schedstat_ns(head_of(thread.schedstat.get()), thread.ns)) return;
  thread.group = thread_group_of(head_of(dir / "comm"));
  live_.emplace(tid, std::move(thread));
}

bool ThreadCpuReader::read(Totals& out) {
  std::error_code ec;
  std::filesystem::directory_iterator tasks(task_dir(), ec);
  std::lock_guard lock(mutex_);
  if (ec) {
    out = last_;
    return false;
  }
  std::vector<int64_t> listed;
  for (const auto& task : tasks) {
    int64_t tid = 0;
    if (parse_tid(task.path().filename().string(), tid)) listed.push_back(tid);
  }
  // A thread gone keeps its last value in its group's accumulator. One that named itself since
  // the last read moves from "other" to its group with the microseconds it ran before: those are
  // counted twice, in both.
  for (auto it = live_.begin(); it != live_.end();) {
    const ThreadGroup before = it->second.group;
    const uint64_t before_ns = it->second.ns;
    const bool alive = std::find(listed.begin(), listed.end(), it->first) != listed.end() &&
                       refresh(it->first, it->second);
    if (!alive || it->second.group != before) exited_[static_cast<size_t>(before)] += before_ns;
    it = alive ? std::next(it) : live_.erase(it);
  }
  for (const int64_t tid : listed) {
    if (!live_.contains(tid)) add(tid);
  }
  Totals totals = exited_;
  for (const auto& [tid, thread] : live_) totals[static_cast<size_t>(thread.group)] += thread.ns;
  for (size_t g = 0; g < kThreadGroups; ++g) totals[g] = std::max(totals[g], last_[g]);
  last_ = totals;
  out = totals;
  return true;
}

}  // namespace flightrec::exporter::metrics
