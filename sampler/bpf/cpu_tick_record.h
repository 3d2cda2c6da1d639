/* The record sampler/bpf/cpu_ticks.bpf.c writes to its ring buffer at every firing of its timer,
 * read by sampler/src/ebpf/kernel_ticks.cpp: shared by the BPF program (built against vmlinux.h)
 * and the C++ reader (built against <linux/types.h>). A record is the head followed by one
 * flightrec_tick_cpu per possible CPU id (the loader says how many), not the whole array. */
#ifndef FLIGHTREC_NETWORK_BPF_CPU_TICK_RECORD_H
#define FLIGHTREC_NETWORK_BPF_CPU_TICK_RECORD_H

/* The most CPU ids a record holds. The scratch record is sized for it, and a firing costs about a
 * microsecond per CPU, so a machine with more is refused rather than served at 4 ms. */
#define FLIGHTREC_TICK_MAX_CPUS 1024

/* /proc/stat's columns, in its order (which is not the kernel's cpustat order). */
#define FLIGHTREC_TICK_CPU_MODES 10
#define FLIGHTREC_TICK_USER 0
#define FLIGHTREC_TICK_NICE 1
#define FLIGHTREC_TICK_SYSTEM 2
#define FLIGHTREC_TICK_IDLE 3
#define FLIGHTREC_TICK_IOWAIT 4
#define FLIGHTREC_TICK_IRQ 5
#define FLIGHTREC_TICK_SOFTIRQ 6
#define FLIGHTREC_TICK_STEAL 7
#define FLIGHTREC_TICK_GUEST 8
#define FLIGHTREC_TICK_GUEST_NICE 9

/* status: whether the program found every CPU's counters at this firing. */
#define FLIGHTREC_TICK_OK 0
/* The running task led to no runqueue (a kernel without CONFIG_FAIR_GROUP_SCHED). */
#define FLIGHTREC_TICK_NO_RUNQUEUE 1
/* The per-CPU anchor map gave no address for a CPU (bad_cpu). */
#define FLIGHTREC_TICK_NO_ANCHOR 2
/* The runqueue at bad_cpu's computed address could not be read or names another CPU: the
 * per-CPU layout is not what the loader found in the kernel's BTF. */
#define FLIGHTREC_TICK_CPU_MISMATCH 3
/* Reading bad_cpu's kernel_cpustat or tick_sched at their computed addresses failed. */
#define FLIGHTREC_TICK_READ_FAILED 4

struct flightrec_tick_head {
  __u64 mono_ns;          /* bpf_ktime_get_ns() at the firing: CLOCK_MONOTONIC */
  __u64 context_switches; /* sum of rq->nr_switches over possible CPUs: /proc/stat's ctxt */
  __u64 running;          /* sum of rq->nr_running over online CPUs: procs_running */
  __u64 blocked;          /* sum of rq->nr_iowait over possible CPUs: procs_blocked */
  __u32 status;           /* FLIGHTREC_TICK_OK or what went wrong */
  __u32 bad_cpu;          /* the CPU the status is about */
};

/* One CPU's times in ns, /proc/stat's columns. idle and iowait are get_cpu_idle_time_us()'s and
 * get_cpu_iowait_time_us()'s for an online CPU (its current idle period included), cpustat's for
 * an offline one. online is 1 while the scheduler has the CPU online (rq->online: the CPUs
 * /proc/stat lists), else 0: an offline CPU's times are the kernel's counters as they stand, not a
 * continuation of its online ones (the reader makes them one). An id that is not a possible CPU is
 * all zeros. */
struct flightrec_tick_cpu {
  __u64 ns[FLIGHTREC_TICK_CPU_MODES];
  __u64 online;
};

struct flightrec_tick_record {
  struct flightrec_tick_head head;
  struct flightrec_tick_cpu cpus[FLIGHTREC_TICK_MAX_CPUS];
};

#endif
