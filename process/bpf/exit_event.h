/* The record process/bpf/exits.bpf.c puts into its ring buffer for every process (thread group)
 * that ended, read by process/src/ebpf/exit_program.cpp: shared by the BPF program (built against
 * vmlinux.h) and the C++ reader (built against <linux/types.h>). */
#ifndef FLIGHTREC_NETWORK_BPF_EXIT_EVENT_H
#define FLIGHTREC_NETWORK_BPF_EXIT_EVENT_H

#define FLIGHTREC_EXIT_COMM_LEN 16
/* Room for ~2,900 unread events: the reader drains at every process tick (250 ms). */
#define FLIGHTREC_EXIT_RING_BYTES (256 * 1024)

/* flightrec_exit_event.flags: the OOM killer chose this process (its signal_struct holds the
 * oom_mm that mark_oom_victim() set); the record is then a flightrec_oom_exit_event. */
#define FLIGHTREC_EXIT_OOM_VICTIM 1u
/* A memory cgroup's path as the kernel log prints it. Written in halves: each component goes in
 * at an offset below the half with a read bounded by the half, which the verifier can check. */
#define FLIGHTREC_CGROUP_PATH_HALF 256
#define FLIGHTREC_CGROUP_PATH_BYTES (2 * FLIGHTREC_CGROUP_PATH_HALF)

struct flightrec_exit_event {
  __u64 start_boottime_ns; /* the group leader's start, CLOCK_BOOTTIME */
  __u64 exit_boottime_ns;  /* when the group's last thread exited, CLOCK_BOOTTIME */
  /* The kernel's tick-sampled split of CPU time (what getrusage scales, see runtime_ns). */
  __u64 utime_ns;
  __u64 stime_ns;
  __u64 runtime_ns;     /* the scheduler's precise CPU time of the whole group */
  __u64 peak_rss_pages; /* the kernel's maxrss bookkeeping, in pages; 0 when not known */
  __u32 tgid;
  __u32 ppid;                         /* tgid of the real parent at exit */
  __u32 uid;                          /* real uid, as seen from the initial user namespace */
  __u32 flags;                        /* FLIGHTREC_EXIT_* */
  char comm[FLIGHTREC_EXIT_COMM_LEN]; /* the group leader's comm */
};

/* The record of an OOM victim: only victims carry their cgroup's path, so the ring's room for
 * ordinary exits stays as above. */
struct flightrec_oom_exit_event {
  struct flightrec_exit_event exit;
  /* The memory limit nearest the victim: the memory.max (v1: memory.limit_in_bytes, the same
   * counter) of its memory cgroup or, when that has none, of the closest ancestor that has one.
   * Read without the kernel log, which needs CAP_SYSLOG; the OOM may still be a farther
   * ancestor's. In pages; 0 when no cgroup up to the root is limited. */
  __u64 limit_pages;
  /* That cgroup's depth below the hierarchy's root (cgroup->level): the first limit_level
   * components of memory_cgroup are its path. */
  __u32 limit_level;
  __u32 reserved;
  /* "/a/b" (the hierarchy's root is "/"), NUL-terminated; cut after the component that passes the
   * first half. "" when it could not be read. */
  char memory_cgroup[FLIGHTREC_CGROUP_PATH_BYTES];
};

#endif
