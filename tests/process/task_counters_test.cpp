// The conversions that make a task iterator's raw counters read like /proc/<pid>/stat and io.
#include "flightrec/process/task_counters.h"

#include <catch2/catch.hpp>
#include <cstring>

using flightrec::process::adjust_cpu_split;
using flightrec::process::apply_task_counters;
using flightrec::process::CpuSplit;
using flightrec::process::encode_tty_nr;
using flightrec::process::KernelUnits;
using flightrec::process::ProcessRow;
using flightrec::process::start_ticks;
using flightrec::process::task_state_letter;
using flightrec::process::TaskCounters;
using flightrec::process::whole_ticks_ns;

namespace {

constexpr uint64_t kMs = 1'000'000;

TaskCounters cpu(uint64_t utime, uint64_t stime, uint64_t runtime) {
  TaskCounters c;
  c.utime_ns = utime;
  c.stime_ns = stime;
  c.runtime_ns = runtime;
  return c;
}

}  // namespace

TEST_CASE("task_state_letter: the kernel's state bits as /proc/<pid>/stat's letter") {
  CHECK(task_state_letter(0x0, 0) == 'R');
  CHECK(task_state_letter(0x1, 0) == 'S');
  CHECK(task_state_letter(0x2, 0) == 'D');
  CHECK(task_state_letter(0x4, 0) == 'T');
  CHECK(task_state_letter(0x8, 0) == 't');
  CHECK(task_state_letter(0x0, 0x10) == 'X');
  CHECK(task_state_letter(0x0, 0x20) == 'Z');
  CHECK(task_state_letter(0x40, 0) == 'P');
  CHECK(task_state_letter(0x402, 0) == 'I');   // TASK_IDLE: uninterruptible without load
  CHECK(task_state_letter(0x1000, 0) == 'D');  // waiting on an RT lock shows as uninterruptible
  CHECK(task_state_letter(0x8000, 0) == 'D');  // frozen too
  CHECK(task_state_letter(0x1 | 0x800, 0) == 'S');  // bits outside TASK_REPORT are not shown
}

TEST_CASE("encode_tty_nr: the controlling terminal as /proc/<pid>/stat's tty_nr") {
  TaskCounters c;
  CHECK(encode_tty_nr(c) == 0);
  c.has_tty = true;
  c.tty_major = 136;  // /dev/pts/1
  c.tty_index = 1;
  CHECK(encode_tty_nr(c) == 34817);
  c.tty_major = 4;  // /dev/tty2: the vt driver's minors start at 1
  c.tty_minor_start = 1;
  c.tty_index = 1;
  CHECK(encode_tty_nr(c) == (4 << 8 | 2));
  c.tty_major = 136;  // /dev/pts/300: minor bits above 8 move to bit 20
  c.tty_minor_start = 0;
  c.tty_index = 300;
  CHECK(encode_tty_nr(c) == ((300 & 0xff) | (136 << 8) | ((300 & ~0xff) << 12)));
}

TEST_CASE("adjust_cpu_split: the tick-sampled split scaled to the precise runtime") {
  CpuSplit reported;
  // 3:1 user to system, runtime 400 ms: 300 + 100.
  CpuSplit split = adjust_cpu_split(cpu(150 * kMs, 50 * kMs, 400 * kMs), reported);
  CHECK(split.user_ns == 300 * kMs);
  CHECK(split.system_ns == 100 * kMs);
  CHECK(reported.user_ns == split.user_ns);
  CHECK(reported.system_ns == split.system_ns);

  SECTION("never below what was reported: a split that turned the other way keeps each part") {
    // Scaled, user would be 125 ms: it stays at 300 and system takes the rest of the 500.
    split = adjust_cpu_split(cpu(100 * kMs, 300 * kMs, 500 * kMs), reported);
    CHECK(split.user_ns == 300 * kMs);
    CHECK(split.system_ns == 200 * kMs);
    split = adjust_cpu_split(cpu(10 * kMs, 990 * kMs, 600 * kMs), reported);
    CHECK(split.user_ns == 300 * kMs);
    CHECK(split.system_ns == 300 * kMs);
  }
  SECTION("a runtime not beyond the last report repeats it") {
    split = adjust_cpu_split(cpu(1, 1, 350 * kMs), reported);
    CHECK(split.user_ns == 300 * kMs);
    CHECK(split.system_ns == 100 * kMs);
  }
  SECTION("the kernel's own record, when another reader moved it further, is the floor") {
    TaskCounters c = cpu(150 * kMs, 50 * kMs, 800 * kMs);
    c.prev_utime_ns = 200 * kMs;
    c.prev_stime_ns = 400 * kMs;
    split = adjust_cpu_split(c, reported);
    CHECK(split.system_ns == 400 * kMs);
    CHECK(split.user_ns == 400 * kMs);
  }
}

TEST_CASE("adjust_cpu_split: all user or all system time") {
  CpuSplit reported;
  CpuSplit split = adjust_cpu_split(cpu(20 * kMs, 0, 35 * kMs), reported);
  CHECK(split.user_ns == 35 * kMs);
  CHECK(split.system_ns == 0);
  CpuSplit other;
  split = adjust_cpu_split(cpu(0, 20 * kMs, 35 * kMs), other);
  CHECK(split.user_ns == 0);
  CHECK(split.system_ns == 35 * kMs);
}

TEST_CASE("clock ticks: start time and CPU time in /proc's resolution") {
  CHECK(start_ticks(438'109'999'999, 100) == 43810);
  CHECK(whole_ticks_ns(12'345'678'901, 100) == 12'340'000'000);
  CHECK(whole_ticks_ns(9'999'999, 100) == 0);
  CHECK(whole_ticks_ns(1'000'000'000, 250) == 1'000'000'000);
}

TEST_CASE("apply_task_counters: a row in the frame's units") {
  TaskCounters c = cpu(150 * kMs, 50 * kMs, 401 * kMs + 5);
  c.pid = 4242;
  c.ppid = 1;
  c.pgrp = 4242;
  c.session = 4200;
  c.uid = 1000;
  c.state = 0x1;
  c.threads = 3;
  c.vm_pages = 1000;
  c.rss_pages = 25;
  c.minor_faults = 7;
  c.major_faults = 2;
  c.io_read_bytes = 4096;
  c.io_write_bytes = 8192;
  std::memcpy(c.comm.data(), "worker", 7);
  ProcessRow row;
  row.comm = "from procfs";
  row.cmdline = "worker --flag";
  CpuSplit reported;
  apply_task_counters(c, reported, KernelUnits{100, 4096}, row);
  CHECK(row.pid == 4242);
  CHECK(row.ppid == 1);
  CHECK(row.pgrp == 4242);
  CHECK(row.session == 4200);
  CHECK(row.tty_nr == 0);
  CHECK(row.uid == 1000);
  CHECK(row.state == 'S');
  CHECK_FALSE(row.kernel_thread);
  CHECK_FALSE(row.exited);
  CHECK(row.cpu_user_ns == 300 * kMs);  // 300.75 ms, truncated to whole ticks
  CHECK(row.cpu_system_ns == 100 * kMs);
  CHECK(row.vsz_bytes == 1000 * 4096);
  CHECK(row.rss_bytes == 25 * 4096);
  CHECK(row.threads == 3);
  CHECK(row.minor_faults == 7);
  CHECK(row.major_faults == 2);
  CHECK(row.io_read_bytes == 4096);
  CHECK(row.io_write_bytes == 8192);
  // comm and the identity fields are procfs's, read once per process.
  CHECK(row.comm == "from procfs");
  CHECK(row.cmdline == "worker --flag");
  CHECK(c.comm_view() == "worker");

  c.flags = 0x00200000;  // PF_KTHREAD
  apply_task_counters(c, reported, KernelUnits{100, 4096}, row);
  CHECK(row.kernel_thread);
}
