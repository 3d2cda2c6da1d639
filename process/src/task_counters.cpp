#include "flightrec/process/task_counters.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace flightrec::process {
namespace {

constexpr uint64_t kNanosPerSecond = 1'000'000'000;

// The kernel scales CPU time with 128-bit intermediates (mul_u64_u64_div_u64); so do we.
// `using` cannot carry __extension__, which keeps -Wpedantic quiet about __int128.
__extension__ typedef unsigned __int128 Wide;  // NOLINT(modernize-use-using)

// include/linux/sched.h: the bits task_state_index() reports and the states it folds.
constexpr uint32_t kTaskReport = 0x7f;  // R S D T t X Z P: running is no bit at all
constexpr uint32_t kTaskUninterruptible = 0x2;
constexpr uint32_t kTaskIdle = 0x402;  // TASK_UNINTERRUPTIBLE | TASK_NOLOAD
constexpr uint32_t kTaskReportIdle = 0x80;
constexpr uint32_t kTaskRtlockWait = 0x1000;
constexpr uint32_t kTaskFrozen = 0x8000;
constexpr std::string_view kStateLetters = "RSDTtXZPI";

uint64_t ticks_to_ns(uint64_t ticks, int64_t user_hz) {
  const auto hz = static_cast<uint64_t>(user_hz);
  return ticks / hz * kNanosPerSecond + ticks % hz * kNanosPerSecond / hz;
}

uint64_t ns_to_ticks(uint64_t ns, int64_t user_hz) {
  const auto hz = static_cast<uint64_t>(user_hz);
  // USER_HZ divides a second everywhere Linux runs (100): one 64-bit division, as the kernel's.
  if (kNanosPerSecond % hz == 0) return ns / (kNanosPerSecond / hz);
  return static_cast<uint64_t>(static_cast<Wide>(ns) * hz / kNanosPerSecond);
}

// include/linux/kdev_t.h: MKDEV's kernel layout to new_encode_dev's user-visible one.
constexpr uint32_t kMinorBits = 20;
constexpr uint32_t kMinorMask = (1U << kMinorBits) - 1;

uint64_t tick_ns(int64_t user_hz) { return kNanosPerSecond / static_cast<uint64_t>(user_hz); }

// The kernel's state bits for a letter of /proc/<pid>/stat: task_state_letter's inverse.
void state_bits(char letter, TaskCounters& c) {
  const size_t index = kStateLetters.find(letter);
  if (index == std::string_view::npos || index == 0) return;  // R, or a letter we do not know
  const uint32_t bit = 1U << (index - 1);
  if (letter == 'I') {
    c.state = kTaskIdle;
  } else if (letter == 'X' || letter == 'Z') {
    c.exit_state = bit;
  } else {
    c.state = bit;
  }
}

}  // namespace

std::string_view TaskCounters::comm_view() const noexcept {
  return {comm.data(), ::strnlen(comm.data(), comm.size())};
}

CpuSplit adjust_cpu_split(const TaskCounters& counters, CpuSplit& reported) {
  // Another reader of /proc moves the kernel's own record; follow whichever is further along.
  CpuSplit prev = reported;
  if (counters.prev_utime_ns + counters.prev_stime_ns > prev.user_ns + prev.system_ns) {
    prev = {.user_ns = counters.prev_utime_ns, .system_ns = counters.prev_stime_ns};
  }
  const uint64_t runtime = counters.runtime_ns;
  if (prev.user_ns + prev.system_ns >= runtime) {
    reported = prev;
    return prev;
  }
  uint64_t system = counters.stime_ns;
  const uint64_t user = counters.utime_ns;
  if (system != 0 && user == 0) {
    system = runtime;
  } else if (system != 0) {
    system = static_cast<uint64_t>(static_cast<Wide>(system) * runtime /
                                   (static_cast<Wide>(system) + user));
    system = std::min(system, runtime);
  }
  system = std::max(system, prev.system_ns);
  CpuSplit split{.user_ns = runtime - system, .system_ns = system};
  if (split.user_ns < prev.user_ns) {
    split.user_ns = prev.user_ns;
    split.system_ns = runtime - split.user_ns;
  }
  reported = split;
  return split;
}

char task_state_letter(uint32_t state, uint32_t exit_state) {
  uint32_t bits = (state | exit_state) & kTaskReport;
  if ((state & kTaskIdle) == kTaskIdle) bits = kTaskReportIdle;
  // The kernel shows a task blocked on an RT lock or frozen as uninterruptible.
  if ((state & (kTaskRtlockWait | kTaskFrozen)) != 0) bits = kTaskUninterruptible;
  const auto index = static_cast<size_t>(std::bit_width(bits));
  return index < kStateLetters.size() ? kStateLetters[index] : '?';
}

int32_t encode_tty_nr(const TaskCounters& counters) {
  if (!counters.has_tty) return 0;
  const uint32_t device = ((counters.tty_major << kMinorBits) | counters.tty_minor_start) +
                          static_cast<uint32_t>(counters.tty_index);
  const uint32_t major = device >> kMinorBits;
  const uint32_t minor = device & kMinorMask;
  return static_cast<int32_t>((minor & 0xffU) | (major << 8U) | ((minor & ~0xffU) << 12U));
}

uint64_t start_ticks(uint64_t start_boottime_ns, int64_t user_hz) {
  return ns_to_ticks(start_boottime_ns, user_hz);
}

uint64_t whole_ticks_ns(uint64_t ns, int64_t user_hz) {
  return ticks_to_ns(ns_to_ticks(ns, user_hz), user_hz);
}

void apply_task_counters(const TaskCounters& counters, CpuSplit& reported, const KernelUnits& units,
                         ProcessRow& row) {
  row.pid = counters.pid;
  row.ppid = counters.ppid;
  row.pgrp = counters.pgrp;
  row.session = counters.session;
  row.tty_nr = encode_tty_nr(counters);
  row.uid = counters.uid;
  row.state = task_state_letter(counters.state, counters.exit_state);
  row.kernel_thread = counters.is_kernel_thread();
  row.exited = false;
  const CpuSplit cpu = adjust_cpu_split(counters, reported);
  row.cpu_user_ns = whole_ticks_ns(cpu.user_ns, units.user_hz);
  row.cpu_system_ns = whole_ticks_ns(cpu.system_ns, units.user_hz);
  const auto page = static_cast<uint64_t>(units.page_size);
  row.rss_bytes = counters.rss_pages * page;
  row.vsz_bytes = counters.vm_pages * page;
  row.threads = counters.threads;
  row.minor_faults = counters.minor_faults;
  row.major_faults = counters.major_faults;
  row.io_read_bytes = counters.io_read_bytes;
  row.io_write_bytes = counters.io_write_bytes;
}

TaskCounters counters_from_procfs(const PidStat& stat, const PidIo& io, const KernelUnits& units) {
  TaskCounters c;
  c.pid = stat.pid;
  c.ppid = stat.ppid;
  c.pgrp = stat.pgrp;
  c.session = stat.session;
  c.flags = stat.flags;
  state_bits(stat.state, c);
  c.threads = static_cast<uint32_t>(std::max<int64_t>(stat.num_threads, 0));
  // new_encode_dev's layout back to a device whose minor_start is the minor and index 0.
  const auto tty = static_cast<uint32_t>(stat.tty_nr);
  c.has_tty = tty != 0;
  c.tty_major = (tty & 0xfff00U) >> 8U;
  c.tty_minor_start = (tty & 0xffU) | ((tty >> 12U) & 0xfff00U);
  const uint64_t tick = tick_ns(units.user_hz);
  c.start_boottime_ns = stat.starttime * tick;
  // A split already scaled: reported as it is.
  c.utime_ns = stat.utime * tick;
  c.stime_ns = stat.stime * tick;
  c.runtime_ns = c.utime_ns + c.stime_ns;
  c.prev_utime_ns = c.utime_ns;
  c.prev_stime_ns = c.stime_ns;
  c.minor_faults = stat.minflt;
  c.major_faults = stat.majflt;
  c.vm_pages = stat.vsize / static_cast<uint64_t>(units.page_size);
  c.rss_pages = static_cast<uint64_t>(std::max<int64_t>(stat.rss, 0));
  c.io_read_bytes = io.read_bytes.value_or(0);
  c.io_write_bytes = io.write_bytes.value_or(0);
  const size_t length = std::min(stat.comm.size(), c.comm.size() - 1);
  std::memcpy(c.comm.data(), stat.comm.data(), length);
  return c;
}

}  // namespace flightrec::process
