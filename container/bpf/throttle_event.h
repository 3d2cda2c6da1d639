/* The record container/bpf/cfs_throttle.bpf.c puts into its ring buffer when one CPU's queue of a
 * task group starts and stops being throttled, read by container/src/ebpf/throttle_program.cpp:
 * shared by the BPF program (built against vmlinux.h) and the C++ reader (built against
 * <linux/types.h>). */
#ifndef FLIGHTREC_CONTAINER_BPF_THROTTLE_EVENT_H
#define FLIGHTREC_CONTAINER_BPF_THROTTLE_EVENT_H

/* Two 72-byte records per throttled queue and period: room for about 3,600, 18 s of a group
 * throttled every 100 ms period on 10 CPUs; the reader drains far more often. */
#define FLIGHTREC_THROTTLE_RING_BYTES (256 * 1024)
/* Queues that can be followed at once on one CPU (one per throttled group); a throttled queue
 * seen while all are taken is not recorded, and each time it is seen counts in `untracked`. */
#define FLIGHTREC_THROTTLE_OPEN_PER_CPU 64
/* How many levels of a task's group hierarchy are looked at (kubepods/burstable/pod/container
 * is four). */
#define FLIGHTREC_THROTTLE_MAX_DEPTH 8

/* flightrec_throttle_event.kind */
#define FLIGHTREC_THROTTLE_BEGAN 1u
#define FLIGHTREC_THROTTLE_ENDED 2u
/* flightrec_throttle_event.flags: end_ns is the kernel's own unthrottle time (the queue's
 * throttled_clock_self_time grew by exactly the throttled time). Without it, end_ns is the refill
 * that fell between the last context switch of that CPU that saw the queue throttled and the one
 * that saw it unthrottled, or the latter's time if none did. */
#define FLIGHTREC_THROTTLE_END_EXACT 1u

struct flightrec_throttle_event {
  __u64 cgroup_id; /* the group's cgroup: its kernfs node id, the cgroup directory's inode */
  /* CLOCK_MONOTONIC: when the queue was seen throttled, at the context switch that followed the
   * throttle (or, if earlier, timed_from_ns) */
  __s64 start_ns;
  /* CLOCK_MONOTONIC: when the kernel started counting the throttled time (its first task of the
   * group taken off the CPU); 0 if it never did, or not yet in a BEGAN event */
  __s64 timed_from_ns;
  __s64 end_ns;        /* CLOCK_MONOTONIC: when it was unthrottled; 0 in a BEGAN event */
  __s64 period_end_ns; /* CLOCK_MONOTONIC: the refill that was due when it began */
  __u64 period_ns;     /* the group's CFS period */
  __u64 quota_ns;      /* the group's quota per period */
  __u32 cpu;
  __u16 kind;  /* FLIGHTREC_THROTTLE_BEGAN or _ENDED */
  __u16 flags; /* FLIGHTREC_THROTTLE_END_EXACT */
};

#endif
