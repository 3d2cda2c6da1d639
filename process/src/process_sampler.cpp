#include "flightrec/process/process_sampler.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <utility>

#include "flightrec/common/clock.h"
#include "flightrec/common/open_file_limit.h"
#include "flightrec/process/pid_io.h"
#include "process_identity.h"

namespace flightrec::process {
namespace {

constexpr int64_t kNanosPerSecond = 1'000'000'000;
// A stat line is ~350 bytes and io ~200; a larger file grows the buffer once.
constexpr size_t kReadBufferBytes = 4096;
// Fds left to the rest of the program (HTTP connections, recordings, transient reads).
constexpr size_t kReservedFds = 512;
// Each held process keeps its directory, stat and io open.
constexpr size_t kFdsPerProcess = 3;

uint64_t ticks_to_ns(uint64_t ticks, int64_t user_hz) {
  const auto hz = static_cast<uint64_t>(user_hz);
  constexpr auto kNanos = static_cast<uint64_t>(kNanosPerSecond);
  return ticks / hz * kNanos + ticks % hz * kNanos / hz;
}

// How many fds the sampler may hold, once the limit is raised (thousands of processes need
// thousands of fds).
size_t fd_budget_from_limit() {
  const size_t soft = raise_open_file_limit();
  return soft - std::min(kReservedFds, soft / 2);
}

bool out_of_fds(int error) { return error == EMFILE || error == ENFILE; }

// One pread at offset 0: procfs produces the whole of a small file in one read, and a read shorter
// than the buffer means end of file on any filesystem. Grows the buffer when a read fills it.
int pread_whole(int fd, std::vector<char>& buffer, std::string_view& out) {
  for (;;) {
    const ssize_t n = ::pread(fd, buffer.data(), buffer.size(), 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (static_cast<size_t>(n) < buffer.size()) {
      out = std::string_view(buffer.data(), static_cast<size_t>(n));
      return 0;
    }
    buffer.resize(buffer.size() * 2);
  }
}

}  // namespace

ProcessSampler::ProcessSampler(const sampler::ProcRoot& root, ProcessSamplerOptions options)
    : table_(root, options.units),
      lister_(root.procfs),
      pid_watch_(root.procfs),
      always_list_(options.always_list),
      redactor_(std::move(options.redact_cmdline)),
      max_count_(options.max_count),
      buffer_(kReadBufferBytes) {
  const size_t budget = fd_budget_from_limit();
  fd_budget_ = options.max_held_fds ? std::min(*options.max_held_fds, budget) : budget;
}

void ProcessSampler::sample(ProcessFrame& out) {
  const int64_t started = clock_ns(CLOCK_MONOTONIC);
  out.begin_tick(clock_ns(CLOCK_REALTIME));
  rows_ = 0;
  stats_.fd_fallbacks = 0;
  reread_identities_ = false;
  if (auto redactor = take_redactor()) {
    redactor_ = std::move(*redactor);
    reread_identities_ = true;  // every command line again, through the new pattern
  }

  // No PID allocated since the last tick means no new process: the known ones are the listing.
  // (Not after a tick that dropped rows: the known processes are not all there are then.)
  const bool list = always_list_ || stats_.dropped_last_tick || pid_watch_.maybe_new_pids();
  if (!list) {
    listed_.clear();
    for (const auto& process : tracked_) listed_.push_back(process->pid());
    ++stats_.listings_skipped_total;
    // Without a listing, the processes already known are still re-read; only new ones are missed.
  } else if (const int error = lister_.list(listed_); error != 0) {
    ++stats_.read_errors_total;
    stats_.last_error =
        "cannot list " + table_.root().procfs.string() + ": " + std::strerror(error);
  }

  // Merge the known processes with the listing, both in PID order.
  next_.clear();
  size_t t = 0;
  size_t l = 0;
  while (t < tracked_.size() || l < listed_.size()) {
    const bool has_tracked = t < tracked_.size();
    const bool has_listed = l < listed_.size();
    const int32_t pid = has_tracked && (!has_listed || tracked_[t]->pid() <= listed_[l])
                            ? tracked_[t]->pid()
                            : listed_[l];
    const bool listed = has_listed && listed_[l] == pid;
    if (listed) ++l;
    const bool full = rows_ >= max_count_;
    if (full && listed) ++out.processes_dropped;
    if (has_tracked && tracked_[t]->pid() == pid) {
      std::unique_ptr<Tracked>& process = tracked_[t++];
      if (full) {
        release(*process);
      } else {
        refresh(process, listed, out);
      }
    } else if (!full) {
      admit(pid, out);
    }
  }
  tracked_.swap(next_);
  next_.clear();
  out.processes.resize(rows_);
  stats_.dropped_last_tick = out.processes_dropped != 0;

  stats_.processes = static_cast<uint32_t>(rows_);
  stats_.held = static_cast<uint32_t>(
      std::count_if(tracked_.begin(), tracked_.end(), [](const auto& p) { return p->held(); }));
  stats_.last_sample_duration_ns = clock_ns(CLOCK_MONOTONIC) - started;
}

void ProcessSampler::admit(int32_t pid, ProcessFrame& out) {
  auto owned = std::make_unique<Tracked>();
  Tracked& process = *owned;
  process.row.pid = pid;
  if (const int error = table_.open(pid, process.dir); error != 0) {
    if (process_vanished(error)) {
      ++stats_.vanished_total;
    } else {
      fail(pid, "", std::strerror(error));
    }
    return;
  }
  if (const ReadOutcome outcome = read_identity(process); outcome != ReadOutcome::ok) {
    if (outcome == ReadOutcome::vanished) ++stats_.vanished_total;
    return;
  }
  try_hold(process);
  read_io(process);
  if (!process.held()) {
    process.dir = PidDir();
    ++stats_.fd_fallbacks;
  }
  emit(process.row, out);
  next_.push_back(std::move(owned));
}

void ProcessSampler::refresh(std::unique_ptr<Tracked>& owned, bool listed, ProcessFrame& out) {
  Tracked& process = *owned;
  const bool transient = !process.held();
  Refresh outcome = Refresh::alive;
  if (transient) {
    ++stats_.fd_fallbacks;
    if (const int error = table_.open(process.pid(), process.dir); error != 0) {
      outcome = process_vanished(error) ? Refresh::gone : Refresh::failed;
      if (outcome == Refresh::failed) fail(process.pid(), "", std::strerror(error));
    }
  }
  PidStat stat;
  // A PID missing from the listing is checked with a fresh open through its directory: a held
  // file on a fixture tree stays readable after its directory is deleted.
  if (outcome == Refresh::alive) outcome = read_stat(process, !listed, stat);
  if (outcome == Refresh::alive && stat.starttime != process.starttime) outcome = Refresh::gone;

  if (outcome == Refresh::gone) {
    process.row.exited = true;
    process.row.state = 'x';
    emit(process.row, out);
    ++stats_.vanished_total;
    release(process);
    return;
  }
  if (outcome == Refresh::alive) {
    const bool exec = stat.comm != process.row.comm;
    apply_stat(stat, process.row);
    // exec changes comm, and with it the command line, possibly the uid (setuid) and cgroup.
    // Should that read fail, the old identity stands; an exit shows on the next tick.
    if (exec || reread_identities_) static_cast<void>(read_identity(process));
    read_io(process);
    if (transient) try_hold(process);
  }
  if (!process.held()) process.dir = PidDir();
  // On a failed read the last known row stands in; the error is counted and named.
  emit(process.row, out);
  next_.push_back(std::move(owned));
}

ProcessSampler::Refresh ProcessSampler::read_stat(Tracked& process, bool fresh, PidStat& stat) {
  std::string_view bytes;
  int error = 0;
  if (process.held() && !fresh) {
    error = pread_whole(process.stat.get(), buffer_, bytes);
  } else {
    error = process.dir.read("stat", scratch_);
    bytes = scratch_;
  }
  if (error != 0) {
    if (process_vanished(error)) return Refresh::gone;
    fail(process.pid(), "stat", std::strerror(error));
    return Refresh::failed;
  }
  Result<PidStat> parsed = parse_pid_stat(bytes);
  if (!parsed.ok()) {
    fail(process.pid(), "stat", parsed.error());
    return Refresh::failed;
  }
  stat = *std::move(parsed);
  return Refresh::alive;
}

ReadOutcome ProcessSampler::read_identity(Tracked& process) {
  IdentityRead read = read_process_identity(table_, process.dir, redactor_, process.row);
  if (!read.error.empty()) {
    ++stats_.read_errors_total;
    stats_.last_error = std::move(read.error);
  }
  if (read.outcome != ReadOutcome::ok) return read.outcome;
  process.starttime = read.info.stat.starttime;
  apply_stat(read.info.stat, process.row);
  return ReadOutcome::ok;
}

void ProcessSampler::read_io(Tracked& process) {
  ProcessRow& row = process.row;
  if (process.io_access == IoAccess::denied || process.io_access == IoAccess::absent) return;
  std::string_view bytes;
  int error = 0;
  if (process.io.valid()) {
    error = pread_whole(process.io.get(), buffer_, bytes);
  } else {
    error = process.dir.read("io", scratch_);
    bytes = scratch_;
  }
  // io is readable only by the owner (and root), and only while ptrace would be allowed: a
  // process that exec'd a setuid binary turns unreadable. Not permitted is not an error.
  if (error == EACCES || error == EPERM || error == ENOENT) {
    process.io_access = error == ENOENT ? IoAccess::absent : IoAccess::denied;
    if (process.io.valid()) {
      process.io.reset();
      --fds_held_;
    }
    row.io_read_bytes.reset();
    row.io_write_bytes.reset();
    return;
  }
  if (error != 0) {
    // ESRCH: the process exited after its stat was read; the next tick reports it.
    if (!process_vanished(error)) fail(process.pid(), "io", std::strerror(error));
    return;
  }
  const Result<PidIo> io = parse_pid_io(bytes);
  if (!io.ok()) {
    fail(process.pid(), "io", io.error());
    return;
  }
  row.io_read_bytes = io->read_bytes;
  row.io_write_bytes = io->write_bytes;
}

void ProcessSampler::try_hold(Tracked& process) {
  if (fds_held_ + kFdsPerProcess > fd_budget_) return;
  Fd stat(::openat(process.dir.fd(), "stat", O_RDONLY | O_CLOEXEC));
  if (!stat) {
    // Out of fds despite the budget (another part of the program holds them): stop trying.
    if (out_of_fds(errno)) fd_budget_ = fds_held_;
    return;
  }
  Fd io;
  if (process.io_access == IoAccess::unknown || process.io_access == IoAccess::held) {
    io = Fd(::openat(process.dir.fd(), "io", O_RDONLY | O_CLOEXEC));
    if (!io) {
      if (out_of_fds(errno)) {
        fd_budget_ = fds_held_;
        return;
      }
      if (errno == EACCES || errno == EPERM) process.io_access = IoAccess::denied;
      if (errno == ENOENT) process.io_access = IoAccess::absent;
    }
  }
  process.stat = std::move(stat);
  process.io = std::move(io);
  // The directory and stat, plus io when it is readable.
  fds_held_ += process.io.valid() ? 3U : 2U;
}

void ProcessSampler::release(Tracked& process) {
  if (process.held()) {
    fds_held_ -= process.io.valid() ? 3U : 2U;
  }
  process.stat.reset();
  process.io.reset();
  process.dir = PidDir();
}

void ProcessSampler::apply_stat(const PidStat& stat, ProcessRow& row) const {
  const KernelUnits& units = table_.units();
  row.pid = stat.pid;
  row.ppid = stat.ppid;
  row.pgrp = stat.pgrp;
  row.session = stat.session;
  row.tty_nr = stat.tty_nr;
  row.state = stat.state;
  row.kernel_thread = stat.is_kernel_thread();
  row.exited = false;
  row.comm = stat.comm;
  row.cpu_user_ns = ticks_to_ns(stat.utime, units.user_hz);
  row.cpu_system_ns = ticks_to_ns(stat.stime, units.user_hz);
  row.rss_bytes = static_cast<uint64_t>(std::max<int64_t>(stat.rss, 0)) *
                  static_cast<uint64_t>(units.page_size);
  row.vsz_bytes = stat.vsize;
  row.threads = static_cast<uint32_t>(
      std::clamp<int64_t>(stat.num_threads, 0, std::numeric_limits<uint32_t>::max()));
  row.minor_faults = stat.minflt;
  row.major_faults = stat.majflt;
}

void ProcessSampler::emit(const ProcessRow& row, ProcessFrame& out) {
  if (rows_ < out.processes.size()) {
    out.processes[rows_] = row;
  } else {
    out.processes.push_back(row);
  }
  ++rows_;
}

void ProcessSampler::fail(int32_t pid, std::string_view file, std::string_view why) {
  ++stats_.read_errors_total;
  std::filesystem::path path = table_.root().procfs / std::to_string(pid);
  if (!file.empty()) path /= file;
  stats_.last_error = path.string() + ": " + std::string(why);
}

}  // namespace flightrec::process
