#include "flightrec/exporter/metrics/thread_cpu.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <string>
#include <system_error>

#include "flightrec/common/fd.h"

namespace flightrec::exporter::metrics {

namespace {

// The start of a small procfs file, newline dropped; "" when it cannot be read (the thread
// exited meanwhile). One open and read: this runs for every thread at every scrape.
std::string head_of(const std::filesystem::path& path) {
  const Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return {};
  std::array<char, 128> buf{};
  const ssize_t n = ::read(fd.get(), buf.data(), buf.size());
  if (n <= 0) return {};
  std::string text(buf.data(), static_cast<size_t>(n));
  if (const auto end = text.find('\n'); end != std::string::npos) text.resize(end);
  return text;
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
    if (!parse_schedstat_ns(head_of(task.path() / "schedstat"), ns)) continue;
    // A thread keeps the name it gives itself as it starts, so comm is read again only while a
    // thread is in "other" (it may not have named itself yet), and for a tid whose time went
    // back, which is a newer thread reusing the tid.
    const auto before = live_.find(tid);
    const bool known = before != live_.end() && before->second.ns <= ns &&
                       before->second.group != ThreadGroup::other;
    now[tid] = {
        .group = known ? before->second.group : thread_group_of(head_of(task.path() / "comm")),
        .ns = ns};
  }
  // A thread gone, or a tid reused by a newer thread (less time, or another name): the old
  // thread's last value moves to its group's accumulator. (A thread that named itself after a
  // read moves from "other" to its group with the few microseconds it ran before: counted twice.)
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
