// SPDX-License-Identifier: GPL-2.0
/* The process tier's eBPF backend: a task iterator (iter/task) that writes one record per process
 * (thread-group leader) and one per other thread into the iterator's seq file, so that one read()
 * returns what /proc/<pid>/stat and /proc/<pid>/io give for every process. The values are what
 * those files are computed from; the reader sums a process's thread records into it and applies
 * the conversions procfs applies (state letters, the scaled CPU split, clock ticks, pages). See
 * docs/PROCESS_TIER.md ("Backends").
 *
 * Fields are read with plain loads through the iterator's BTF pointers, which the verifier turns
 * into fault-safe loads: a bpf_probe_read_kernel call costs ~0.1 us here, and one per field made
 * the read as costly as /proc. The iterator visits every thread anyway, so threads come as their
 * own records rather than from a walk of the thread list, which would need those calls. */
/* vmlinux.h first: the libbpf headers use its kernel types. */
/* clang-format off */
#include "vmlinux.h"
/* clang-format on */

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "mm_rss_flavours.h"
#include "task_record.h"

char LICENSE[] SEC("license") = "GPL";

#define PF_KTHREAD 0x00200000

static __always_inline __u64 positive(__s64 count) { return count > 0 ? (__u64)count : 0; }

/* get_mm_rss(): each counter clamped at zero (its per-CPU remainders are not summed), added up. */
static __always_inline __u64 rss_pages(const struct mm_struct* mm) {
  if (bpf_core_field_exists(mm->rss_stat[0].count)) {
    return positive(mm->rss_stat[MM_FILEPAGES].count) + positive(mm->rss_stat[MM_ANONPAGES].count) +
           positive(mm->rss_stat[MM_SHMEMPAGES].count);
  }
  const struct mm_struct___atomic_rss* old = (const void*)mm;
  return positive(BPF_CORE_READ(old, rss_stat.count[MM_FILEPAGES].counter)) +
         positive(BPF_CORE_READ(old, rss_stat.count[MM_ANONPAGES].counter)) +
         positive(BPF_CORE_READ(old, rss_stat.count[MM_SHMEMPAGES].counter));
}

/* A task's own share of the sums of thread_group_cputime(), do_task_stat() and
 * do_io_accounting(). */
static __always_inline void add_own(struct flightrec_task_record* record,
                                    const struct task_struct* task) {
  record->utime_ns += task->utime;
  record->stime_ns += task->stime;
  record->runtime_ns += task->se.sum_exec_runtime;
  record->min_flt += task->min_flt;
  record->maj_flt += task->maj_flt;
  record->io_read_bytes += task->ioac.read_bytes;
  record->io_write_bytes += task->ioac.write_bytes;
}

/* What released threads left in the signal struct, and the group's other per-process fields. */
static __always_inline void add_group(struct flightrec_task_record* record,
                                      const struct signal_struct* signal) {
  record->utime_ns += signal->utime;
  record->stime_ns += signal->stime;
  record->runtime_ns += signal->sum_sched_runtime;
  record->prev_utime_ns = signal->prev_cputime.utime;
  record->prev_stime_ns = signal->prev_cputime.stime;
  record->min_flt += signal->min_flt;
  record->maj_flt += signal->maj_flt;
  record->io_read_bytes += signal->ioac.read_bytes;
  record->io_write_bytes += signal->ioac.write_bytes;
  record->nr_threads = signal->nr_threads;
  /* Process ids as the initial PID namespace numbers them (the reader checks it lives there). */
  const struct pid* pgrp = signal->pids[PIDTYPE_PGID];
  const struct pid* session = signal->pids[PIDTYPE_SID];
  if (pgrp) record->pgrp = pgrp->numbers[0].nr;
  if (session) record->session = session->numbers[0].nr;
  const struct tty_struct* tty = signal->tty;
  if (tty) {
    record->has_tty = 1;
    record->tty_major = tty->driver->major;
    record->tty_minor_start = tty->driver->minor_start;
    record->tty_index = tty->index;
  }
}

SEC("iter/task")
int dump_process(struct bpf_iter__task* ctx) {
  struct seq_file* seq = ctx->meta->seq;
  const struct task_struct* task = ctx->task;
  if (!task) return 0; /* the end of the walk */

  struct flightrec_task_record record = {};
  record.tgid = task->tgid;
  add_own(&record, task);
  if (task->pid != task->tgid) {
    record.kind = FLIGHTREC_TASK_THREAD;
    bpf_seq_write(seq, &record, sizeof(record));
    return 0;
  }
  record.kind = FLIGHTREC_TASK_PROCESS;
  record.start_boottime_ns = task->start_boottime;
  record.flags = task->flags;
  record.state = task->__state;
  record.exit_state = task->exit_state;
  record.uid = task->real_cred->uid.val;
  if (task->thread_pid) record.ppid = task->real_parent->tgid;
  /* Two plain 8-byte loads: a helper call would cost more than the rest of the record. */
  const __u64* comm = (const __u64*)task->comm;
  __u64* copy = (__u64*)record.comm;
  copy[0] = comm[0];
  copy[1] = comm[1];

  const struct signal_struct* signal = task->signal;
  if (signal) add_group(&record, signal);
  /* get_task_mm(): kernel threads have no memory of their own to report. */
  const struct mm_struct* mm = task->mm;
  if (mm && !(record.flags & PF_KTHREAD)) {
    record.total_vm_pages = mm->total_vm;
    record.rss_pages = rss_pages(mm);
  }
  bpf_seq_write(seq, &record, sizeof(record));
  return 0;
}
