// SPDX-License-Identifier: GPL-2.0
/* The process tier's eBPF backend: a task iterator (iter/task) that writes one record per process
 * (thread group) into the iterator's seq file, so that one read() returns what /proc/<pid>/stat
 * and /proc/<pid>/io give for every process. The values are what those files are computed from,
 * summed over the threads the same way; the conversions procfs applies (state letters, the scaled
 * CPU split, clock ticks, pages) are done by the reader. See docs/PROCESS_TIER.md ("Backends").
 *
 * Needs bpf_loop (Linux 5.17+) for the thread walk; an older kernel refuses the program and the
 * process tier reads /proc. */
/* vmlinux.h first: the libbpf headers use its kernel types. */
/* clang-format off */
#include "vmlinux.h"
/* clang-format on */

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "task_record.h"

char LICENSE[] SEC("license") = "GPL";

/* Threads summed per process at most; a larger group is flagged (threads_truncated). */
#define MAX_THREADS_WALKED (1 << 16)

/* Before Linux 6.2 the mm's RSS counters were atomics in a struct (Debian 12's 6.1); since then
 * they are percpu_counters, whose shared count is what /proc reads. */
struct mm_rss_stat___atomic {
  atomic_long_t count[NR_MM_COUNTERS];
} __attribute__((preserve_access_index));

struct mm_struct___atomic_rss {
  struct mm_rss_stat___atomic rss_stat;
} __attribute__((preserve_access_index));

static __always_inline __u64 positive(__s64 count) { return count > 0 ? (__u64)count : 0; }

/* get_mm_rss(): each counter clamped at zero (its per-CPU remainders are not summed), added up. */
static __always_inline __u64 rss_pages(const struct mm_struct* mm) {
  if (bpf_core_field_exists(mm->rss_stat[0].count)) {
    return positive(BPF_CORE_READ(mm, rss_stat[MM_FILEPAGES].count)) +
           positive(BPF_CORE_READ(mm, rss_stat[MM_ANONPAGES].count)) +
           positive(BPF_CORE_READ(mm, rss_stat[MM_SHMEMPAGES].count));
  }
  const struct mm_struct___atomic_rss* old = (const void*)mm;
  return positive(BPF_CORE_READ(old, rss_stat.count[MM_FILEPAGES].counter)) +
         positive(BPF_CORE_READ(old, rss_stat.count[MM_ANONPAGES].counter)) +
         positive(BPF_CORE_READ(old, rss_stat.count[MM_SHMEMPAGES].counter));
}

/* The walk over signal->thread_head, one bpf_loop step per thread. Addresses are kept as
 * integers: the list is read through probe reads, under the RCU read lock iterators run in. */
struct thread_walk {
  __u64 head;
  __u64 node;
  __u64 utime;
  __u64 stime;
  __u64 runtime;
  __u64 min_flt;
  __u64 maj_flt;
  __u64 read_bytes;
  __u64 write_bytes;
  __u32 done;
};

static long add_thread(__u32 index, void* context) {
  struct thread_walk* walk = context;
  if (walk->node == walk->head || walk->node == 0) {
    walk->done = 1;
    return 1;
  }
  const struct task_struct* thread =
      (const void*)(walk->node - bpf_core_field_offset(struct task_struct, thread_node));
  walk->utime += BPF_CORE_READ(thread, utime);
  walk->stime += BPF_CORE_READ(thread, stime);
  walk->runtime += BPF_CORE_READ(thread, se.sum_exec_runtime);
  walk->min_flt += BPF_CORE_READ(thread, min_flt);
  walk->maj_flt += BPF_CORE_READ(thread, maj_flt);
  walk->read_bytes += BPF_CORE_READ(thread, ioac.read_bytes);
  walk->write_bytes += BPF_CORE_READ(thread, ioac.write_bytes);
  const struct list_head* node = (const void*)walk->node;
  walk->node = (__u64)BPF_CORE_READ(node, next);
  return 0;
}

/* thread_group_cputime() and the sums of do_task_stat() and do_io_accounting(): what released
 * threads left in the signal struct plus every thread still in the group's list (a zombie leader
 * stays listed until it is reaped). */
static __always_inline void add_group_totals(struct flightrec_task_record* record,
                                             const struct signal_struct* signal) {
  struct thread_walk walk = {
      .head = (__u64)signal + bpf_core_field_offset(struct signal_struct, thread_head),
  };
  walk.node = (__u64)BPF_CORE_READ(signal, thread_head.next);
  bpf_loop(MAX_THREADS_WALKED, add_thread, &walk, 0);
  record->utime_ns = BPF_CORE_READ(signal, utime) + walk.utime;
  record->stime_ns = BPF_CORE_READ(signal, stime) + walk.stime;
  record->runtime_ns = BPF_CORE_READ(signal, sum_sched_runtime) + walk.runtime;
  record->prev_utime_ns = BPF_CORE_READ(signal, prev_cputime.utime);
  record->prev_stime_ns = BPF_CORE_READ(signal, prev_cputime.stime);
  record->min_flt = BPF_CORE_READ(signal, min_flt) + walk.min_flt;
  record->maj_flt = BPF_CORE_READ(signal, maj_flt) + walk.maj_flt;
  record->io_read_bytes = BPF_CORE_READ(signal, ioac.read_bytes) + walk.read_bytes;
  record->io_write_bytes = BPF_CORE_READ(signal, ioac.write_bytes) + walk.write_bytes;
  record->threads_truncated = walk.done ? 0 : 1;
}

/* Process ids as the initial PID namespace numbers them (the reader checks it lives there). */
static __always_inline __s32 pid_number(const struct pid* pid) {
  return pid ? BPF_CORE_READ(pid, numbers[0].nr) : 0;
}

static __always_inline void add_session(struct flightrec_task_record* record,
                                        const struct signal_struct* signal) {
  record->pgrp = pid_number(BPF_CORE_READ(signal, pids[PIDTYPE_PGID]));
  record->session = pid_number(BPF_CORE_READ(signal, pids[PIDTYPE_SID]));
  const struct tty_struct* tty = BPF_CORE_READ(signal, tty);
  if (!tty) return;
  record->has_tty = 1;
  record->tty_major = BPF_CORE_READ(tty, driver, major);
  record->tty_minor_start = BPF_CORE_READ(tty, driver, minor_start);
  record->tty_index = BPF_CORE_READ(tty, index);
}

SEC("iter/task")
int dump_process(struct bpf_iter__task* ctx) {
  struct seq_file* seq = ctx->meta->seq;
  const struct task_struct* task = ctx->task;
  if (!task) return 0; /* the end of the walk */
  const __s32 tgid = BPF_CORE_READ(task, tgid);
  if (BPF_CORE_READ(task, pid) != tgid) return 0; /* threads are summed at their leader */

  struct flightrec_task_record record = {};
  record.tgid = tgid;
  record.start_boottime_ns = BPF_CORE_READ(task, start_boottime);
  record.flags = BPF_CORE_READ(task, flags);
  record.state = BPF_CORE_READ(task, __state);
  record.exit_state = BPF_CORE_READ(task, exit_state);
  record.uid = BPF_CORE_READ(task, real_cred, uid.val);
  if (BPF_CORE_READ(task, thread_pid)) record.ppid = BPF_CORE_READ(task, real_parent, tgid);
  BPF_CORE_READ_STR_INTO(&record.comm, task, comm);

  const struct signal_struct* signal = BPF_CORE_READ(task, signal);
  if (signal) {
    record.nr_threads = BPF_CORE_READ(signal, nr_threads);
    add_group_totals(&record, signal);
    add_session(&record, signal);
  }
  /* get_task_mm(): kernel threads have no memory of their own to report. */
  const struct mm_struct* mm = BPF_CORE_READ(task, mm);
  if (mm && !(record.flags & 0x00200000 /* PF_KTHREAD */)) {
    record.total_vm_pages = BPF_CORE_READ(mm, total_vm);
    record.rss_pages = rss_pages(mm);
  }
  bpf_seq_write(seq, &record, sizeof(record));
  return 0;
}
