// SPDX-License-Identifier: GPL-2.0
/* Each CFS bandwidth throttling of each task group, from the kernel's own state and clocks: one
 * record per CPU queue when it begins and when it ends. See docs/CONTAINERS.md ("Throttling
 * episodes").
 *
 * The kernels this runs on refuse trampoline programs (fentry) and have no kprobes, so
 * throttle_cfs_rq() and unthrottle_cfs_rq() cannot be hooked. The program reads instead what those
 * functions leave in the group's queue, at the one tracepoint that follows every throttling: a task
 * of the throttled group leaves its CPU (sched_switch), so its queues are looked at as it goes.
 *  - The start: throttle_cfs_rq() marks the queue throttled in the scheduler's pick (it counts one
 *    more throttled level in throttle_count of the queue and those below it), and the task
 *    is switched out by that pick or, once it returns to user space and is taken off (6.18's
 *    deferred throttle), right after. The kernel starts counting the throttled time (it stamps
 *    throttled_clock with the rq clock) only when the first task is taken off, which another task
 *    running on that CPU meanwhile can put off by a tick or more: both are reported.
 *  - The end: unthrottle_cfs_rq() unmarks the queue, adds now - throttled_clock to the group's
 *    throttled_time (what cpu.stat reports) and clears throttled_clock; tg_unthrottle_up() adds the
 *    same difference to the queue's throttled_clock_self_time. So once the queue is unthrottled, the
 *    growth of throttled_clock_self_time is the exact length of what the kernel counted, however
 *    late it is seen. The program looks at the CPU's open episodes at each context switch of that
 *    CPU: the unthrottled tasks are enqueued there, and an idle CPU switches to them at once.
 * The rq clock (sched_clock) is turned into CLOCK_MONOTONIC with the offset between the two read at
 * a context switch, just after the scheduler updated the rq clock. */
/* vmlinux.h first: the libbpf headers use its kernel types. */
/* clang-format off */
#include "vmlinux.h"
/* clang-format on */

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "throttle_event.h"

char LICENSE[] SEC("license") = "GPL";

struct {
  __uint(type, BPF_MAP_TYPE_RINGBUF);
  __uint(max_entries, FLIGHTREC_THROTTLE_RING_BYTES);
} events SEC(".maps");

/* Events lost because the reader fell behind and the ring was full. */
__u64 dropped = 0;
/* Times a throttled queue was seen and not followed: its CPU already followed
 * FLIGHTREC_THROTTLE_OPEN_PER_CPU. */
__u64 untracked = 0;

/* A queue seen throttled and not yet seen unthrottled. */
struct open_episode {
  __u64 cfs_rq;        /* its address; 0 for a free slot */
  __u64 parent_cfs_rq; /* the queue its group's entity is in; 0 for the root's */
  __s64 seen_ns;
  __s64 last_throttled_ns; /* the last time it was seen still throttled */
  __u64 throttled_clock; /* 0 until the kernel starts counting */
  __u64 self_clock;      /* throttled_clock_self then: equal unless an ancestor was throttled first */
  __u64 self_time;       /* throttled_clock_self_time then */
  __s64 clock_to_mono;   /* CLOCK_MONOTONIC - rq clock, then */
  __u64 cgroup_id;
  __s64 period_end_ns;
  __u64 period_ns;
  __u64 quota_ns;
};

/* Each CPU's open episodes, touched only from that CPU with its runqueue locked: the queues are
 * that CPU's, and the kernel changes them under the same lock. */
struct open_episodes {
  __u32 count;
  __u32 reserved;
  struct open_episode slot[FLIGHTREC_THROTTLE_OPEN_PER_CPU];
};

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, struct open_episodes);
} open_by_cpu SEC(".maps");

/* A throttle lasts at most a few periods (periods are at most 1 s); a longer difference means the
 * queue was freed and its memory reused. */
#define MAX_EPISODE_NS (3600ull * 1000000000ull)

static __always_inline __s64 timed_from(const struct open_episode* episode) {
  return episode->throttled_clock ? (__s64)episode->throttled_clock + episode->clock_to_mono : 0;
}

static __always_inline void emit(const struct open_episode* episode, __u16 kind, __s64 end_ns,
                                 __u16 flags) {
  struct flightrec_throttle_event* event = bpf_ringbuf_reserve(&events, sizeof(*event), 0);
  if (!event) {
    __sync_fetch_and_add(&dropped, 1);
    return;
  }
  const __s64 timed = timed_from(episode);
  event->cgroup_id = episode->cgroup_id;
  event->start_ns = timed && timed < episode->seen_ns ? timed : episode->seen_ns;
  event->timed_from_ns = timed;
  event->end_ns = end_ns;
  event->period_end_ns = episode->period_end_ns;
  event->period_ns = episode->period_ns;
  event->quota_ns = episode->quota_ns;
  event->cpu = bpf_get_smp_processor_id();
  event->kind = kind;
  event->flags = flags;
  /* The reader drains on its own timer and never waits on the ring: no wakeup to send. */
  bpf_ringbuf_submit(event, BPF_RB_NO_WAKEUP);
}

/* Notes that the kernel started counting `episode`'s throttled time at rq clock `throttled_clock`,
 * reading the baseline of the queue's own count now, before the unthrottle adds to it. */
static __always_inline void start_timing(struct open_episode* episode,
                                         const struct cfs_rq* cfs_rq, __u64 throttled_clock,
                                         __u64 rq_clock) {
  episode->throttled_clock = throttled_clock;
  episode->clock_to_mono = (__s64)bpf_ktime_get_ns() - (__s64)rq_clock;
  if (bpf_core_field_exists(cfs_rq->throttled_clock_self_time)) {
    episode->self_clock = BPF_CORE_READ(cfs_rq, throttled_clock_self);
    episode->self_time = BPF_CORE_READ(cfs_rq, throttled_clock_self_time);
  }
}

/* Whether the queue is throttled by its own group's quota: it counts one more throttled level than
 * the queue above it. (Read so rather than from its `throttled` bit field, whose CO-RE relocation
 * clang 14 cannot build.) */
static __always_inline bool own_throttle(int count, int parent_count) {
  return count > parent_count;
}

/* When the queue was most likely unthrottled, for an end the kernel kept no time of: between the
 * last look that saw it throttled and `now_ns`, the refill (the period timer lets the group run a
 * few microseconds after it is due) if one fell in between, else `now_ns` (runtime another CPU
 * returned, or a change of the quota). */
static __always_inline __s64 seen_end(const struct open_episode* episode, __s64 now_ns) {
  const __s64 period = (__s64)episode->period_ns;
  __s64 refill = episode->period_end_ns;
  if (period > 0 && episode->last_throttled_ns >= refill) {
    refill += ((__u64)(episode->last_throttled_ns - refill) / (__u64)period + 1) * period;
  }
  return refill <= now_ns ? refill : now_ns;
}

/* Reports the end of `episode` if its queue was unthrottled; true when it was. */
static __always_inline bool settle(struct open_episode* episode, __s64 now_ns) {
  const struct cfs_rq* cfs_rq = (const struct cfs_rq*)episode->cfs_rq;
  const struct cfs_rq* parent = (const struct cfs_rq*)episode->parent_cfs_rq;
  const __u64 throttled_clock = BPF_CORE_READ(cfs_rq, throttled_clock);
  const bool throttled = own_throttle(BPF_CORE_READ(cfs_rq, throttle_count),
                                      parent ? BPF_CORE_READ(parent, throttle_count) : 0);
  /* A new throttle since the last look ended this one too. */
  const bool again = episode->throttled_clock && throttled_clock != episode->throttled_clock;
  if (throttled && !again) {
    if (!episode->throttled_clock && throttled_clock) {
      start_timing(episode, cfs_rq, throttled_clock, BPF_CORE_READ(cfs_rq, rq, clock));
    }
    episode->last_throttled_ns = now_ns;
    return false;
  }
  __s64 end_ns = 0;
  __u16 flags = 0;
  if (episode->throttled_clock && bpf_core_field_exists(cfs_rq->throttled_clock_self_time) &&
      episode->self_clock == episode->throttled_clock &&
      BPF_CORE_READ(cfs_rq, throttled_clock_self) != episode->self_clock) {
    const __u64 length = BPF_CORE_READ(cfs_rq, throttled_clock_self_time) - episode->self_time;
    if (length > 0 && length < MAX_EPISODE_NS) {
      end_ns = (__s64)(episode->throttled_clock + length) + episode->clock_to_mono;
      flags = FLIGHTREC_THROTTLE_END_EXACT;
    }
  }
  if (flags == 0) end_ns = seen_end(episode, now_ns);
  emit(episode, FLIGHTREC_THROTTLE_ENDED, end_ns, flags);
  return true;
}

struct settle_walk {
  struct open_episodes* open;
  __s64 now_ns;
  __u32 seen;
};

/* bpf_loop() callback: settles slot `index`; stops once every open episode was looked at. */
static long settle_slot(__u32 index, void* context) {
  struct settle_walk* walk = context;
  struct open_episodes* open = walk->open;
  if (index >= FLIGHTREC_THROTTLE_OPEN_PER_CPU || walk->seen >= open->count) return 1;
  struct open_episode* episode = &open->slot[index];
  if (!episode->cfs_rq) return 0;
  if (settle(episode, walk->now_ns)) {
    episode->cfs_rq = 0;
    open->count--;
  } else {
    walk->seen++;
  }
  return 0;
}

struct slot_search {
  struct open_episodes* open;
  __u64 cfs_rq;
  __u32 seen;
  int free_slot;
  bool found;
};

/* bpf_loop() callback: looks for the queue's open episode and the first free slot. */
static long search_slot(__u32 index, void* context) {
  struct slot_search* search = context;
  if (index >= FLIGHTREC_THROTTLE_OPEN_PER_CPU) return 1;
  const __u64 address = search->open->slot[index].cfs_rq;
  if (address == search->cfs_rq) {
    search->found = true;
    return 1;
  }
  if (address) {
    search->seen++;
    return 0;
  }
  if (search->free_slot < 0) search->free_slot = (int)index;
  return search->seen >= search->open->count; /* the rest are free */
}

/* Opens an episode for `cfs_rq` (under `parent`), seen throttled on this CPU now, unless one is
 * open (the settling just before closed any earlier one of the queue). */
static __always_inline void begin(struct open_episodes* open, struct cfs_rq* cfs_rq,
                                  struct cfs_rq* parent) {
  struct slot_search search = {.open = open, .cfs_rq = (__u64)cfs_rq, .free_slot = -1};
  bpf_loop(FLIGHTREC_THROTTLE_OPEN_PER_CPU, search_slot, &search, 0);
  if (search.found) return;
  if (search.free_slot < 0) {
    __sync_fetch_and_add(&untracked, 1);
    return;
  }
  struct open_episode* episode =
      &open->slot[search.free_slot & (FLIGHTREC_THROTTLE_OPEN_PER_CPU - 1)];
  const struct task_group* group = cfs_rq->tg;
  const struct cfs_bandwidth* bandwidth = &group->cfs_bandwidth;
  episode->cfs_rq = (__u64)cfs_rq;
  episode->parent_cfs_rq = (__u64)parent;
  episode->seen_ns = (__s64)bpf_ktime_get_ns();
  episode->last_throttled_ns = episode->seen_ns;
  episode->throttled_clock = 0;
  episode->self_clock = 0;
  episode->self_time = 0;
  episode->clock_to_mono = 0;
  if (cfs_rq->throttled_clock) {
    start_timing(episode, cfs_rq, cfs_rq->throttled_clock, cfs_rq->rq->clock);
  }
  episode->cgroup_id = group->css.cgroup ? group->css.cgroup->kn->id : 0;
  episode->period_end_ns = bandwidth->period_timer.node.expires;
  episode->period_ns = bandwidth->period;
  episode->quota_ns = bandwidth->quota;
  open->count++;
  emit(episode, FLIGHTREC_THROTTLE_BEGAN, 0, 0);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(throttle_switch, bool preempt, struct task_struct* prev, struct task_struct* next,
             unsigned int prev_state) {
  const __u32 zero = 0;
  struct open_episodes* open = bpf_map_lookup_elem(&open_by_cpu, &zero);
  if (!open) return 0;
  if (open->count) {
    struct settle_walk walk = {.open = open, .now_ns = (__s64)bpf_ktime_get_ns()};
    bpf_loop(FLIGHTREC_THROTTLE_OPEN_PER_CPU, settle_slot, &walk, 0);
  }

  /* throttle_count counts the throttled levels from the task's queue up: zero almost always. */
  struct sched_entity* entity = &prev->se;
  struct cfs_rq* cfs_rq = entity->cfs_rq;
  if (!cfs_rq) return 0;
  int count = cfs_rq->throttle_count;
  for (int depth = 0; depth < FLIGHTREC_THROTTLE_MAX_DEPTH && count > 0; ++depth) {
    /* The group's entity on this CPU sits in its parent group's queue; the root's has none. */
    struct sched_entity* group_entity = entity->parent;
    struct cfs_rq* parent = group_entity ? group_entity->cfs_rq : NULL;
    const int parent_count = parent ? parent->throttle_count : 0;
    if (own_throttle(count, parent_count)) begin(open, cfs_rq, parent);
    if (!parent) break;
    entity = group_entity;
    cfs_rq = parent;
    count = parent_count;
  }
  return 0;
}
