// SPDX-License-Identifier: GPL-2.0
/* One event per process (thread group) that ends, with the totals the kernel still holds at that
 * moment, so processes that live less than a process tick are not lost. See docs/PROCESS_TIER.md
 * ("Short-lived processes").
 *
 * A tp_btf program like traffic.bpf.c: the kernels this runs on refuse trampoline programs and
 * have no kprobes. */
/* vmlinux.h first: the libbpf headers use its kernel types. */
/* clang-format off */
#include "vmlinux.h"
/* clang-format on */

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "exit_event.h"
#include "mm_rss_flavours.h"

char LICENSE[] SEC("license") = "GPL";

struct {
  __uint(type, BPF_MAP_TYPE_RINGBUF);
  __uint(max_entries, FLIGHTREC_EXIT_RING_BYTES);
} events SEC(".maps");

/* Events lost because the reader fell behind and the ring was full. */
__u64 dropped = 0;

/* A process identified across PID reuse. */
struct process_key {
  __u32 tgid;
  __u32 reserved;
  __u64 start_boottime_ns;
};

/* signal->live is read after the decrement, so threads exiting together can all find it at zero;
 * the first of them to get here reports the process. Entries only need to outlive that moment:
 * an LRU map forgets them by itself. */
struct {
  __uint(type, BPF_MAP_TYPE_LRU_HASH);
  __uint(max_entries, 1024);
  __type(key, struct process_key);
  __type(value, __u8);
} reported SEC(".maps");

static __always_inline __u64 max_u64(__u64 a, __u64 b) { return a > b ? a : b; }

static __always_inline __u64 positive(__s64 count) { return count > 0 ? (__u64)count : 0; }

/* What the kernel's get_mm_hiwater_rss() computes; the counters' per-CPU remainders are not
 * summed (neither does the kernel's maxrss). Both counter layouts (mm_rss_flavours.h): the
 * program must load on 6.1, whose tracepoint runs after exit_mm() and never gets here. */
static __always_inline __u64 mm_peak_rss_pages(const struct mm_struct* mm) {
  __u64 rss;
  if (bpf_core_field_exists(mm->rss_stat[0].count)) {
    rss = positive(BPF_CORE_READ(mm, rss_stat[MM_FILEPAGES].count)) +
          positive(BPF_CORE_READ(mm, rss_stat[MM_ANONPAGES].count)) +
          positive(BPF_CORE_READ(mm, rss_stat[MM_SHMEMPAGES].count));
  } else {
    const struct mm_struct___atomic_rss* old = (const void*)mm;
    rss = positive(BPF_CORE_READ(old, rss_stat.count[MM_FILEPAGES].counter)) +
          positive(BPF_CORE_READ(old, rss_stat.count[MM_ANONPAGES].counter)) +
          positive(BPF_CORE_READ(old, rss_stat.count[MM_SHMEMPAGES].counter));
  }
  return max_u64(rss, BPF_CORE_READ(mm, hiwater_rss));
}

/* CPU time of the whole group: threads already released were folded into the signal struct
 * (__exit_signal); the exiting thread and an exited group leader (a zombie until the group is
 * empty) were not. */
static __always_inline void add_cpu_times(struct flightrec_exit_event* event,
                                          const struct task_struct* task,
                                          const struct task_struct* leader) {
  const struct signal_struct* signal = BPF_CORE_READ(task, signal);
  event->utime_ns = BPF_CORE_READ(signal, utime) + BPF_CORE_READ(task, utime);
  event->stime_ns = BPF_CORE_READ(signal, stime) + BPF_CORE_READ(task, stime);
  event->runtime_ns =
      BPF_CORE_READ(signal, sum_sched_runtime) + BPF_CORE_READ(task, se.sum_exec_runtime);
  if (leader != task) {
    event->utime_ns += BPF_CORE_READ(leader, utime);
    event->stime_ns += BPF_CORE_READ(leader, stime);
    event->runtime_ns += BPF_CORE_READ(leader, se.sum_exec_runtime);
  }
}

/* The kernel's maximum cgroup nesting is far deeper, but containers sit a few levels down
 * (kubepods/burstable/pod.../container); a deeper path keeps its top 16 components. */
#define CGROUP_DEPTH 16

/* kernfs_node's parent is "parent" up to 6.14 (Debian 12's 6.1) and "__parent" from 6.15 on; each
 * flavour names only that field, so this builds against either kernel's vmlinux.h. */
struct kernfs_node___parent {
  struct kernfs_node* parent;
} __attribute__((preserve_access_index));
struct kernfs_node___rcu_parent {
  struct kernfs_node* __parent;
} __attribute__((preserve_access_index));

static __always_inline struct kernfs_node* kernfs_parent(const struct kernfs_node* node) {
  const struct kernfs_node___rcu_parent* renamed = (const void*)node;
  if (bpf_core_field_exists(renamed->__parent)) return BPF_CORE_READ(renamed, __parent);
  return BPF_CORE_READ((const struct kernfs_node___parent*)node, parent);
}

/* The task's memory cgroup's state: on v1 its memory hierarchy's cgroup, on v2 the nearest cgroup
 * with the memory controller. */
static __always_inline struct cgroup_subsys_state* memory_css(const struct task_struct* task) {
  const int memory = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
  const struct css_set* cgroups = BPF_CORE_READ(task, cgroups);
  struct cgroup_subsys_state* css = NULL;
  bpf_core_read(&css, sizeof(css), &cgroups->subsys[memory]);
  return css;
}

/* The path of the task's memory cgroup, as the kernel log's "task_memcg=" gives it: the same
 * cgroup on v1 (its memory hierarchy) and v2 (the nearest cgroup with the memory controller). */
static __always_inline void memory_cgroup_path(const struct task_struct* task, char* path) {
  const struct cgroup_subsys_state* css = memory_css(task);
  struct kernfs_node* node = BPF_CORE_READ(css, cgroup, kn);
  /* From the cgroup up to (not including) the hierarchy's root, whose name is "". Kept as
   * numbers: the verifier reads back anything stored at a variable stack offset as one, and the
   * kernel reads below only need an address. */
  __u64 nodes[CGROUP_DEPTH];
  int depth = 0;
  for (int i = 0; i < CGROUP_DEPTH && node; ++i) {
    struct kernfs_node* parent = kernfs_parent(node);
    if (!parent) break;
    nodes[depth++] = (__u64)node;
    node = parent;
  }
  path[0] = '/';
  path[1] = 0;
  __u32 at = 0; /* where the next '/' goes */
  for (int i = CGROUP_DEPTH - 1; i >= 0; --i) {
    if (i >= depth) continue;
    if (at >= FLIGHTREC_CGROUP_PATH_HALF - 1) break;
    path[at & (FLIGHTREC_CGROUP_PATH_HALF - 1)] = '/';
    const long copied = bpf_probe_read_kernel_str(
        &path[(at + 1) & (FLIGHTREC_CGROUP_PATH_HALF - 1)], FLIGHTREC_CGROUP_PATH_HALF,
        BPF_CORE_READ((struct kernfs_node*)nodes[i], name));
    if (copied <= 0) {
      path[0] = 0;
      return;
    }
    at += (__u32)copied; /* the NUL it wrote is where the next '/' goes */
  }
}

/* The kernel's PAGE_COUNTER_MAX, a limit of "max": LONG_MAX / PAGE_SIZE on 64-bit kernels. The
 * loader sets it from the page size, which vmlinux.h does not carry. */
const volatile __u64 unlimited_pages = 0;

/* The limit nearest the task's memory cgroup (flightrec_oom_exit_event.limit_pages): its
 * mem_cgroup's page counter, then each parent's (page_counter->parent is the parent cgroup's
 * counter, on v1 as on v2), until one is below "max". */
static __always_inline void memory_limit(const struct task_struct* task,
                                         struct flightrec_oom_exit_event* oom) {
  const struct cgroup_subsys_state* css = memory_css(task);
  if (!css) return;
  const int level = BPF_CORE_READ(css, cgroup, level);
  /* css is the mem_cgroup's first member; the offset is relocated all the same. */
  const struct mem_cgroup* memcg =
      (const void*)((const char*)css - bpf_core_field_offset(struct mem_cgroup, css));
  const struct page_counter* counter = __builtin_preserve_access_index(&memcg->memory);
  for (int up = 0; up < CGROUP_DEPTH && counter && up <= level; ++up) {
    const __u64 max = BPF_CORE_READ(counter, max);
    if (max < unlimited_pages) {
      oom->limit_pages = max;
      oom->limit_level = (__u32)(level - up);
      return;
    }
    counter = BPF_CORE_READ(counter, parent);
  }
}

/* Everything but the flags and what an OOM victim's record adds. */
static __always_inline void fill_exit_event(struct flightrec_exit_event* event,
                                            const struct task_struct* task,
                                            const struct task_struct* leader,
                                            const struct process_key* key) {
  event->start_boottime_ns = key->start_boottime_ns;
  event->exit_boottime_ns = bpf_ktime_get_boot_ns();
  add_cpu_times(event, task, leader);
  /* The group's maxrss is updated when signal->live reaches zero; the mm is still there where the
   * tracepoint runs before exit_mm() (recent kernels), gone where it runs after it. */
  __u64 peak = BPF_CORE_READ(task, signal, maxrss);
  const struct mm_struct* mm = BPF_CORE_READ(task, mm);
  if (mm) peak = max_u64(peak, mm_peak_rss_pages(mm));
  event->peak_rss_pages = peak;
  event->tgid = key->tgid;
  event->ppid = BPF_CORE_READ(task, real_parent, tgid);
  event->uid = BPF_CORE_READ(task, real_cred, uid.val);
  BPF_CORE_READ_STR_INTO(&event->comm, leader, comm);
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(process_exited, struct task_struct* task) {
  if (BPF_CORE_READ(task, signal, live.counter) != 0) return 0; /* other threads still run */
  const struct task_struct* leader = BPF_CORE_READ(task, group_leader);
  struct process_key key = {
      .tgid = BPF_CORE_READ(task, tgid),
      .start_boottime_ns = BPF_CORE_READ(leader, start_boottime),
  };
  const __u8 seen = 1;
  if (bpf_map_update_elem(&reported, &key, &seen, BPF_NOEXIST) != 0) return 0;

  /* mark_oom_victim() sets signal->oom_mm once and only for the process the OOM killer chose (or
   * one already dying that it let finish); it stays until the signal struct is freed, so it is
   * still there when the last thread exits. One read here, where the oom:mark_victim tracepoint
   * would need a second program and gives only a thread's pid on 6.1. */
  if (BPF_CORE_READ(task, signal, oom_mm)) {
    struct flightrec_oom_exit_event* oom = bpf_ringbuf_reserve(&events, sizeof(*oom), 0);
    if (!oom) {
      __sync_fetch_and_add(&dropped, 1);
      return 0;
    }
    fill_exit_event(&oom->exit, task, leader, &key);
    oom->exit.flags = FLIGHTREC_EXIT_OOM_VICTIM;
    memory_cgroup_path(task, oom->memory_cgroup);
    oom->limit_pages = 0;
    oom->limit_level = 0;
    oom->reserved = 0;
    memory_limit(task, oom);
    bpf_ringbuf_submit(oom, 0);
    return 0;
  }
  struct flightrec_exit_event* event = bpf_ringbuf_reserve(&events, sizeof(*event), 0);
  if (!event) {
    __sync_fetch_and_add(&dropped, 1);
    return 0;
  }
  fill_exit_event(event, task, leader, &key);
  event->flags = 0;
  bpf_ringbuf_submit(event, 0);
  return 0;
}
