/* The mm's RSS counters as Linux before 6.2 laid them out (Debian 12's 6.1): atomics in a struct;
 * since 6.2 they are percpu_counters (rss_stat[i].count, in vmlinux.h), whose shared count is what
 * /proc reads. A program built against the newer vmlinux.h reads the older layout through these
 * CO-RE flavours, after bpf_core_field_exists(mm->rss_stat[0].count) said it is not the newer. */
#ifndef FLIGHTREC_NETWORK_BPF_MM_RSS_FLAVOURS_H
#define FLIGHTREC_NETWORK_BPF_MM_RSS_FLAVOURS_H

struct mm_rss_stat___atomic {
  atomic_long_t count[NR_MM_COUNTERS];
} __attribute__((preserve_access_index));

struct mm_struct___atomic_rss {
  struct mm_rss_stat___atomic rss_stat;
} __attribute__((preserve_access_index));

#endif
