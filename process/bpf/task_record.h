/* The record process/bpf/tasks.bpf.c writes to its iterator for every process (thread group),
 * read by process/src/ebpf/task_iterator.cpp: shared by the BPF program (built against
 * vmlinux.h) and the C++ reader (built against <linux/types.h>). The values are the kernel's own,
 * before procfs's conversions (docs/PROCESS_TIER.md, "Backends"). */
#ifndef FLIGHTREC_NETWORK_BPF_TASK_RECORD_H
#define FLIGHTREC_NETWORK_BPF_TASK_RECORD_H

#define FLIGHTREC_TASK_COMM_LEN 16

/* kind: a process record (the group leader: the group's signal-struct totals plus its own) or a
 * thread record (another thread's own counters, for the reader to add to its process's). */
#define FLIGHTREC_TASK_PROCESS 0
#define FLIGHTREC_TASK_THREAD 1

struct flightrec_task_record {
  __u64 start_boottime_ns; /* the group leader's start, CLOCK_BOOTTIME */
  /* CPU time. Summed over a process's records, as thread_group_cputime() does: the signal
   * struct's totals of released threads plus every live thread. utime/stime are tick-sampled;
   * runtime is the scheduler's precise sum that /proc scales them to (cputime_adjust). */
  __u64 utime_ns;
  __u64 stime_ns;
  __u64 runtime_ns;
  __u64 prev_utime_ns; /* signal->prev_cputime: the split /proc last reported */
  __u64 prev_stime_ns;
  __u64 min_flt; /* the group's, as /proc/<pid>/stat sums them */
  __u64 maj_flt;
  __u64 total_vm_pages; /* 0 without an mm (kernel threads, an exited leader) */
  __u64 rss_pages;      /* file + anon + shmem, each counter clamped at 0 as get_mm_rss() does */
  __u64 io_read_bytes;  /* storage I/O of the group, as /proc/<pid>/io sums it */
  __u64 io_write_bytes;
  __s32 tgid; /* the process; a thread record's own id is not needed */
  __s32 ppid; /* tgid of the real parent */
  __s32 pgrp;
  __s32 session;
  __u32 uid;        /* real uid */
  __u32 flags;      /* the leader's PF_* bits */
  __u32 state;      /* the leader's __state */
  __u32 exit_state; /* the leader's exit_state (EXIT_ZOMBIE, EXIT_DEAD) */
  __u32 nr_threads;
  __u32 has_tty;
  __u32 tty_major; /* the controlling terminal's driver major and minor_start, and its index */
  __u32 tty_minor_start;
  __s32 tty_index;
  __u32 kind;                         /* FLIGHTREC_TASK_PROCESS or FLIGHTREC_TASK_THREAD */
  char comm[FLIGHTREC_TASK_COMM_LEN]; /* the leader's task->comm */
};

#endif
