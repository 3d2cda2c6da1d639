// Loads process/bpf/tasks.bpf.c from the skeleton embedded at build time, attaches it as an
// iterator once and, per read, instantiates the iterator and reads it to its end.
#include "flightrec/process/task_iterator.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

#if FLIGHTREC_HAVE_EBPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "flightrec/common/fd.h"
#include "flightrec/ebpf/libbpf_errors.h"
#include "task_record.h"
#include "tasks.skel.h"
#endif

namespace flightrec::process {

#if FLIGHTREC_HAVE_EBPF
namespace {

// PROC_PID_INIT_INO: the initial PID namespace's inode number, fixed by the kernel.
constexpr std::string_view kInitialPidNamespace = "pid:[4026531836]";

bool in_initial_pid_namespace() {
  std::array<char, 64> link{};
  const ssize_t n = ::readlink("/proc/self/ns/pid", link.data(), link.size() - 1);
  return n > 0 && std::string_view(link.data(), static_cast<size_t>(n)) == kInitialPidNamespace;
}

// The seq file hands out at most a few pages per read; reading into the end of one buffer that
// grows keeps a record split between two reads whole.
constexpr size_t kReadChunkBytes = 64 * 1024;

TaskCounters to_counters(const flightrec_task_record& record) {
  TaskCounters c;
  c.pid = record.tgid;
  c.ppid = record.ppid;
  c.pgrp = record.pgrp;
  c.session = record.session;
  c.uid = record.uid;
  c.flags = record.flags;
  c.state = record.state;
  c.exit_state = record.exit_state;
  c.threads = record.nr_threads;
  c.has_tty = record.has_tty != 0;
  c.tty_major = record.tty_major;
  c.tty_minor_start = record.tty_minor_start;
  c.tty_index = record.tty_index;
  c.start_boottime_ns = record.start_boottime_ns;
  c.utime_ns = record.utime_ns;
  c.stime_ns = record.stime_ns;
  c.runtime_ns = record.runtime_ns;
  c.prev_utime_ns = record.prev_utime_ns;
  c.prev_stime_ns = record.prev_stime_ns;
  c.minor_faults = record.min_flt;
  c.major_faults = record.maj_flt;
  c.vm_pages = record.total_vm_pages;
  c.rss_pages = record.rss_pages;
  c.io_read_bytes = record.io_read_bytes;
  c.io_write_bytes = record.io_write_bytes;
  static_assert(sizeof(c.comm) == sizeof(record.comm));
  std::memcpy(c.comm.data(), record.comm, sizeof(record.comm));
  c.comm.back() = '\0';
  return c;
}

class TaskIterator final : public TaskCounterReader {
 public:
  TaskIterator(tasks_bpf* skeleton, bpf_link* link) : skeleton_(skeleton), link_(link) {}
  TaskIterator(const TaskIterator&) = delete;
  TaskIterator& operator=(const TaskIterator&) = delete;
  ~TaskIterator() override {
    bpf_link__destroy(link_);
    tasks_bpf::destroy(skeleton_);
  }

  // A process's threads, in its counters: the iterator gave them as records of their own.
  void add_threads(std::vector<TaskCounters>& processes) const {
    const auto by_pid = [](const TaskCounters& a, const TaskCounters& b) { return a.pid < b.pid; };
    if (!std::is_sorted(processes.begin(), processes.end(), by_pid)) {
      std::sort(processes.begin(), processes.end(), by_pid);
    }
    for (const flightrec_task_record& thread : threads_) {
      const auto it = std::lower_bound(processes.begin(), processes.end(),
                                       TaskCounters{.pid = thread.tgid}, by_pid);
      // A thread whose leader the iterator did not show is counted with it by /proc, not here.
      if (it == processes.end() || it->pid != thread.tgid) continue;
      it->utime_ns += thread.utime_ns;
      it->stime_ns += thread.stime_ns;
      it->runtime_ns += thread.runtime_ns;
      it->minor_faults += thread.min_flt;
      it->major_faults += thread.maj_flt;
      it->io_read_bytes += thread.io_read_bytes;
      it->io_write_bytes += thread.io_write_bytes;
    }
  }

  Status read(std::vector<TaskCounters>& out) override {
    out.clear();
    const Fd iterator(bpf_iter_create(bpf_link__fd(link_)));
    if (!iterator) return Error{std::string("creating the task iterator: ") + std::strerror(errno)};
    size_t used = 0;
    for (;;) {
      if (bytes_.size() - used < kReadChunkBytes) bytes_.resize(used + kReadChunkBytes * 2);
      const ssize_t n = ::read(iterator.get(), bytes_.data() + used, bytes_.size() - used);
      if (n == 0) break;
      if (n < 0) {
        if (errno == EINTR) continue;
        return Error{std::string("reading the task iterator: ") + std::strerror(errno)};
      }
      used += static_cast<size_t>(n);
    }
    if (used % sizeof(flightrec_task_record) != 0) {
      return Error{"the task iterator gave " + std::to_string(used) + " bytes, not whole " +
                   std::to_string(sizeof(flightrec_task_record)) + "-byte records"};
    }
    const size_t records = used / sizeof(flightrec_task_record);
    threads_.clear();
    for (size_t i = 0; i < records; ++i) {
      flightrec_task_record record{};
      std::memcpy(&record, bytes_.data() + i * sizeof record, sizeof record);
      if (record.kind == FLIGHTREC_TASK_PROCESS) {
        out.push_back(to_counters(record));
      } else {
        threads_.push_back(record);
      }
    }
    add_threads(out);
    return {};
  }

 private:
  tasks_bpf* skeleton_;
  bpf_link* link_;
  std::vector<char> bytes_;  // kept across reads: sized once for the machine's processes
  std::vector<flightrec_task_record> threads_;  // this read's thread records
};

}  // namespace

Result<std::unique_ptr<TaskCounterReader>> make_task_iterator() {
  if (!in_initial_pid_namespace()) {
    return Error{
        "not in the initial PID namespace (the task iterator numbers processes as it does)"};
  }
  ebpf::capture_libbpf_messages();
  tasks_bpf* skeleton = tasks_bpf::open();
  if (skeleton == nullptr) {
    return Error{ebpf::describe_libbpf_failure("opening the BPF object tasks.bpf.o", errno)};
  }
  if (const int code = tasks_bpf::load(skeleton); code != 0) {
    tasks_bpf::destroy(skeleton);
    return Error{ebpf::describe_libbpf_failure("loading the BPF program of tasks.bpf.o", code)};
  }
  bpf_link* link = bpf_program__attach_iter(skeleton->progs.dump_process, nullptr);
  if (link == nullptr) {
    // Described before destroy, which may overwrite errno.
    Error failed{
        ebpf::describe_libbpf_failure("attaching BPF iterator dump_process (iter/task)", errno)};
    tasks_bpf::destroy(skeleton);
    return failed;
  }
  return std::unique_ptr<TaskCounterReader>(std::make_unique<TaskIterator>(skeleton, link));
}

#else

Result<std::unique_ptr<TaskCounterReader>> make_task_iterator() {
  return Error{FLIGHTREC_EBPF_UNAVAILABLE};
}

#endif

}  // namespace flightrec::process
