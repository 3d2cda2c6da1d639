// SPDX-License-Identifier: GPL-2.0
/* The sampler's tick taken in the kernel (sampler.backend: ebpf, docs/SOURCES.md "Backends"): on
 * a perf cpu-clock timer of one CPU, at each firing, one record of what /proc/stat would show at
 * that instant for every CPU (its ten columns in ns, and whether it is online) and of its ctxt,
 * procs_running and procs_blocked, written to a ring buffer the sampler thread drains in batches.
 *
 * The counters are per-CPU variables (runqueues, kernel_cpustat, tick_cpu_sched). Kernels built
 * without CONFIG_KALLSYMS_ALL cannot resolve per-CPU ksyms, so they are reached by address:
 * the loader finds each variable's offset inside the kernel's per-CPU section in the vmlinux BTF
 * (rodata below). This CPU's section base is its runqueue (reached from the running task) minus
 * the runqueue's offset; every CPU's per-CPU copies sit at the same distance from their CPU's
 * base, so the distance from this CPU's base to this CPU's copy of the per-CPU map `anchor` gives,
 * from any CPU's copy of the anchor, that CPU's base. Each firing checks, for every CPU, that the
 * runqueue at the computed address names that CPU; a record that fails says so and the reader
 * refuses it. */
/* vmlinux.h first: the libbpf headers use its kernel types. */
/* clang-format off */
#include "vmlinux.h"
/* clang-format on */

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "cpu_tick_record.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader. Offsets inside the per-CPU section, from the vmlinux BTF. */
const volatile __u64 runqueues_offset = 0;
const volatile __u64 kernel_cpustat_offset = 0;
const volatile __u64 tick_cpu_sched_offset = 0;
const volatile __u32 cpu_count = 1; /* highest possible CPU id + 1 */
const volatile __u64 possible_cpus[FLIGHTREC_TICK_MAX_CPUS / 64] = {};
/* Unread bytes past which a firing is dropped rather than recorded: the ring rounds up to a power
 * of two, and this keeps what it holds to the loader's chosen span of ticks. */
const volatile __u64 max_pending_bytes = 0;

/* Firings not recorded because the reader left that much unread. */
__u64 dropped = 0;
/* Every how many firings the reader is woken (0: never). The sampler sets it to its rate of file
 * reads, so that its wake-ups ride on this timer's interrupt rather than on a timer of their own:
 * one wake-up of an idle CPU serves both. */
__u32 wake_every = 0;
__u64 fired = 0; /* one CPU runs the program: no other writer */

/* The verifier refuses arithmetic on the kernel and map pointers this program computes with;
 * passing one through memory turns it into a plain number. */
volatile __u64 laundered = 0;

static __always_inline __u64 address_of(const void* pointer) {
  laundered = (__u64)pointer;
  return laundered;
}

struct {
  __uint(type, BPF_MAP_TYPE_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, struct flightrec_tick_record);
} scratch SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, __u64);
} anchor SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_RINGBUF);
  __uint(max_entries, 64 * 1024); /* the loader sizes it for the period */
} ticks SEC(".maps");

/* Before Linux 6.9 tick_sched's state was a set of bitfields. */
struct tick_sched___bitfields {
  unsigned int idle_active : 1;
} __attribute__((preserve_access_index));

/* include/linux/tick-sched.h (6.9+): a #define, so not in the BTF. */
#define TS_FLAG_IDLE_ACTIVE (1UL << 2)

#define READ_FIELD(destination, address, type, field)        \
  bpf_probe_read_kernel(&(destination), sizeof(destination), \
                        (const void*)((address) + bpf_core_field_offset(type, field)))

struct idle_state {
  __s64 entry_ns; /* when the current idle period began */
  __s64 idle_ns;  /* idle and iowait time of the periods that ended */
  __s64 iowait_ns;
  __u32 active; /* in an idle period now */
};

/* A call of its own: inlined, clang computes the bitfield's relocated offset before the branch
 * that skips it on new kernels, where that relocation cannot be resolved. */
static __noinline __u32 read_idle_active_bitfield(__u64 ts) {
  const struct tick_sched___bitfields* old = (const void*)ts;
  return BPF_CORE_READ_BITFIELD_PROBED(old, idle_active);
}

static __always_inline int read_idle_fields(__u64 ts, struct idle_state* state) {
  if (bpf_core_field_exists(struct tick_sched, flags)) {
    unsigned long flags = 0;
    if (READ_FIELD(flags, ts, struct tick_sched, flags)) return -1;
    state->active = (flags & TS_FLAG_IDLE_ACTIVE) != 0;
  } else {
    state->active = read_idle_active_bitfield(ts);
  }
  return READ_FIELD(state->entry_ns, ts, struct tick_sched, idle_entrytime) |
         READ_FIELD(state->idle_ns, ts, struct tick_sched, idle_sleeptime) |
         READ_FIELD(state->iowait_ns, ts, struct tick_sched, iowait_sleeptime);
}

#define IDLE_STATE_TORN 1

/* The fields get_cpu_sleep_time_us() reads, under the seqcount it reads them under (6.6+; before,
 * the kernel read them unprotected too). Negative when they cannot be read, IDLE_STATE_TORN when
 * writers tore every one of a few tries. */
static __always_inline int read_idle_state(__u64 ts, struct idle_state* state) {
  if (!bpf_core_field_exists(struct tick_sched, idle_sleeptime_seq)) {
    return read_idle_fields(ts, state) ? -1 : 0;
  }
  for (int attempt = 0; attempt < 4; attempt++) {
    unsigned int before = 1;
    unsigned int after = 0;
    if (READ_FIELD(before, ts, struct tick_sched, idle_sleeptime_seq.sequence)) return -1;
    if (before & 1) continue; /* a writer is in the middle */
    if (read_idle_fields(ts, state)) return -1;
    if (READ_FIELD(after, ts, struct tick_sched, idle_sleeptime_seq.sequence)) return -1;
    if (after == before) return 0;
  }
  return IDLE_STATE_TORN;
}

/* get_idle_time() and get_iowait_time() of fs/proc/stat.c for an online CPU: the ended idle
 * periods plus the current one, counted as iowait while tasks of the CPU wait for I/O. */
static __always_inline int add_idle_times(__u64 base, __s64 now, __u32 nr_iowait,
                                          struct flightrec_tick_cpu* out) {
  struct idle_state state = {};
  const int read = read_idle_state(base + tick_cpu_sched_offset, &state);
  if (read < 0) return -1;
  /* Torn every time: the ended periods only, which never counts a period twice; the next firing
   * catches up. */
  if (read == IDLE_STATE_TORN) state.active = 0;
  const __s64 ongoing = state.active && now > state.entry_ns ? now - state.entry_ns : 0;
  out->ns[FLIGHTREC_TICK_IDLE] = state.idle_ns + (nr_iowait == 0 ? ongoing : 0);
  out->ns[FLIGHTREC_TICK_IOWAIT] = state.iowait_ns + (nr_iowait > 0 ? ongoing : 0);
  return 0;
}

static __always_inline int stop_with(struct flightrec_tick_record* record, __u32 status,
                                     __u32 cpu) {
  record->head.status = status;
  record->head.bad_cpu = cpu;
  return 1; /* stops bpf_loop */
}

struct cpu_walk {
  __u64 anchor_minus_base; /* the anchor's distance from its CPU's per-CPU base */
  __s64 now;
};

static int read_cpu(__u32 cpu, void* context) {
  const struct cpu_walk* walk = context;
  __u32 key = 0;
  struct flightrec_tick_record* record = bpf_map_lookup_elem(&scratch, &key);
  if (!record || cpu >= FLIGHTREC_TICK_MAX_CPUS) return 1;
  struct flightrec_tick_cpu* out = &record->cpus[cpu];
  if (!((possible_cpus[cpu / 64] >> (cpu % 64)) & 1)) {
    __builtin_memset(out, 0, sizeof(*out));
    return 0;
  }
  const void* anchor_there = bpf_map_lookup_percpu_elem(&anchor, &key, cpu);
  if (!anchor_there) return stop_with(record, FLIGHTREC_TICK_NO_ANCHOR, cpu);
  const __u64 base = address_of(anchor_there) - walk->anchor_minus_base;

  const __u64 rq = base + runqueues_offset;
  int rq_cpu = -1;
  int online = 0;
  unsigned int nr_running = 0;
  __u64 nr_switches = 0;
  int nr_iowait = 0;
  if (READ_FIELD(rq_cpu, rq, struct rq, cpu) || rq_cpu != (int)cpu ||
      READ_FIELD(online, rq, struct rq, online) ||
      READ_FIELD(nr_running, rq, struct rq, nr_running) ||
      READ_FIELD(nr_switches, rq, struct rq, nr_switches) ||
      READ_FIELD(nr_iowait, rq, struct rq, nr_iowait.counter)) {
    return stop_with(record, FLIGHTREC_TICK_CPU_MISMATCH, cpu);
  }
  record->head.context_switches += nr_switches;
  if (online) record->head.running += nr_running;
  record->head.blocked += nr_iowait;

  __u64 cpustat[NR_STATS] = {};
  if (bpf_probe_read_kernel(cpustat, sizeof(cpustat),
                            (const void*)(base + kernel_cpustat_offset))) {
    return stop_with(record, FLIGHTREC_TICK_READ_FAILED, cpu);
  }
  out->ns[FLIGHTREC_TICK_USER] = cpustat[CPUTIME_USER];
  out->ns[FLIGHTREC_TICK_NICE] = cpustat[CPUTIME_NICE];
  out->ns[FLIGHTREC_TICK_SYSTEM] = cpustat[CPUTIME_SYSTEM];
  out->ns[FLIGHTREC_TICK_IRQ] = cpustat[CPUTIME_IRQ];
  out->ns[FLIGHTREC_TICK_SOFTIRQ] = cpustat[CPUTIME_SOFTIRQ];
  out->ns[FLIGHTREC_TICK_STEAL] = cpustat[CPUTIME_STEAL];
  out->ns[FLIGHTREC_TICK_GUEST] = cpustat[CPUTIME_GUEST];
  out->ns[FLIGHTREC_TICK_GUEST_NICE] = cpustat[CPUTIME_GUEST_NICE];
  /* The scheduler clears rq->online as a CPU begins to go down and sets it once the CPU is up
   * (and, for an instant under the runqueue's lock, when it rebuilds its domains): the CPUs
   * /proc/stat lists, give or take the hotplug's own milliseconds. */
  out->online = online != 0;
  if (!online) {
    out->ns[FLIGHTREC_TICK_IDLE] = cpustat[CPUTIME_IDLE];
    out->ns[FLIGHTREC_TICK_IOWAIT] = cpustat[CPUTIME_IOWAIT];
    return 0;
  }
  if (add_idle_times(base, walk->now, nr_iowait > 0 ? nr_iowait : 0, out) < 0) {
    return stop_with(record, FLIGHTREC_TICK_READ_FAILED, cpu);
  }
  return 0;
}

/* Where this CPU's per-CPU section begins relative to its copy of `anchor`. */
static __always_inline __u32 locate_anchor(__u64* anchor_minus_base) {
  if (!bpf_core_field_exists(struct sched_entity, cfs_rq)) return FLIGHTREC_TICK_NO_RUNQUEUE;
  const struct task_struct* task = bpf_get_current_task_btf();
  const struct cfs_rq* cfs_rq = task->se.cfs_rq;
  if (!cfs_rq) return FLIGHTREC_TICK_NO_RUNQUEUE;
  const struct rq* rq = cfs_rq->rq;
  __u32 key = 0;
  const void* anchor_here = bpf_map_lookup_elem(&anchor, &key);
  if (!rq) return FLIGHTREC_TICK_NO_RUNQUEUE;
  if (!anchor_here) return FLIGHTREC_TICK_NO_ANCHOR;
  const __u64 base = address_of(rq) - runqueues_offset;
  *anchor_minus_base = address_of(anchor_here) - base;
  return FLIGHTREC_TICK_OK;
}

SEC("perf_event")
int record_tick(void* context) {
  __u32 key = 0;
  struct flightrec_tick_record* record = bpf_map_lookup_elem(&scratch, &key);
  if (!record) return 0;
  struct cpu_walk walk = {.now = (__s64)bpf_ktime_get_ns()};
  record->head.mono_ns = walk.now;
  record->head.context_switches = 0;
  record->head.running = 0;
  record->head.blocked = 0;
  record->head.bad_cpu = bpf_get_smp_processor_id();
  record->head.status = locate_anchor(&walk.anchor_minus_base);
  if (record->head.status == FLIGHTREC_TICK_OK) bpf_loop(cpu_count, read_cpu, &walk, 0);

  __u64 size =
      sizeof(struct flightrec_tick_head) + (__u64)cpu_count * sizeof(struct flightrec_tick_cpu);
  if (size > sizeof(*record)) size = sizeof(*record);
  const __u32 every = wake_every;
  const __u64 wake =
      every != 0 && fired++ % every == every - 1 ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
  /* Each record also takes the ring's 8-byte header. */
  if (bpf_ringbuf_query(&ticks, BPF_RB_AVAIL_DATA) + size + 8 > max_pending_bytes ||
      bpf_ringbuf_output(&ticks, record, size, wake) != 0) {
    __sync_fetch_and_add(&dropped, 1);
  }
  return 0;
}
