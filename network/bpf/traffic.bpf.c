// SPDX-License-Identifier: GPL-2.0
/* Per-process network traffic, attributed to the process that owns the socket.
 *
 * Payload bytes are counted by the sock_send_length / sock_recv_length tracepoints, which fire in
 * the task that called send or receive (process context), so they are charged to the process
 * that moved them. Packets are counted where they cross a device (transmit) or reach a socket
 * (receive, a cgroup_skb program), often in softirq context on whatever task happened to run:
 * they are charged to the socket's owner, kept in socket storage. Packets whose owner is unknown
 * are counted in `totals`. See docs/NETWORK.md.
 *
 * Only raw-tracepoint (tp_btf) and cgroup programs: the kernels this runs on refuse trampoline
 * programs (fentry/fexit/lsm) and have no kprobes. */
/* vmlinux.h first: the libbpf headers use its kernel types. */
/* clang-format off */
#include "vmlinux.h"
/* clang-format on */

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "traffic_maps.h"

char LICENSE[] SEC("license") = "GPL";

/* Not in vmlinux.h: these are preprocessor constants of the kernel's headers. */
#define AF_INET 2
#define AF_INET6 10
#define MSG_PEEK 2
#define E2BIG 7
#define MAC_HEADER_UNSET 0xffff

struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, FLIGHTREC_MAX_PROCESSES);
  __type(key, __u32); /* tgid */
  __type(value, struct flightrec_process_traffic);
} processes SEC(".maps");

/* The tgid owning each socket. Stored on the socket itself, so it goes away with the socket, and
 * copied to connections accepted from a listener (BPF_F_CLONE) so they belong to the listener's
 * owner from the handshake on. */
struct {
  __uint(type, BPF_MAP_TYPE_SK_STORAGE);
  __uint(map_flags, BPF_F_NO_PREALLOC | BPF_F_CLONE);
  __type(key, int);
  __type(value, __u32);
} socket_owners SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, struct flightrec_traffic_totals);
} totals SEC(".maps");

static __always_inline struct flightrec_traffic_totals* machine_totals(void) {
  __u32 zero = 0;
  return bpf_map_lookup_elem(&totals, &zero);
}

static __always_inline __u32 current_tgid(void) { return bpf_get_current_pid_tgid() >> 32; }

/* The entry of the current process, created on first use. */
static __always_inline struct flightrec_process_traffic* current_process(__u32 tgid) {
  struct flightrec_process_traffic* traffic = bpf_map_lookup_elem(&processes, &tgid);
  if (traffic) return traffic;
  struct flightrec_process_traffic fresh = {};
  /* The leader's comm is what /proc/<pid>/stat shows; a thread's may be its own name. Copied
   * with plain loads, which tracing and cgroup programs may both use. */
  struct task_struct* leader = bpf_get_current_task_btf()->group_leader;
  __builtin_memcpy(fresh.comm, leader->comm, sizeof(fresh.comm));
  if (bpf_map_update_elem(&processes, &tgid, &fresh, BPF_NOEXIST) == -E2BIG) {
    struct flightrec_traffic_totals* sums = machine_totals();
    if (sums) __sync_fetch_and_add(&sums->process_map_full, 1);
  }
  return bpf_map_lookup_elem(&processes, &tgid);
}

static __always_inline bool is_tcp_or_udp(const struct sock* sk) {
  __u16 family = BPF_CORE_READ(sk, __sk_common.skc_family);
  __u16 protocol = BPF_CORE_READ(sk, sk_protocol);
  return (family == AF_INET || family == AF_INET6) &&
         (protocol == IPPROTO_TCP || protocol == IPPROTO_UDP);
}

/* Payload a task of the current process sent (tx) or received on `sk`; the process becomes the
 * socket's owner (a socket passed to another process follows its user). */
static __always_inline void charge_payload(struct sock* sk, int bytes, bool tx) {
  if (bytes <= 0 || !sk || !is_tcp_or_udp(sk)) return;
  __u32 tgid = current_tgid();
  __u32* owner = bpf_sk_storage_get(&socket_owners, sk, 0, BPF_SK_STORAGE_GET_F_CREATE);
  if (owner && *owner != tgid) *owner = tgid;
  struct flightrec_process_traffic* traffic = current_process(tgid);
  if (traffic) {
    __sync_fetch_and_add(tx ? &traffic->tx_bytes : &traffic->rx_bytes, bytes);
    return;
  }
  struct flightrec_traffic_totals* sums = machine_totals();
  if (sums) __sync_fetch_and_add(tx ? &sums->lost_tx_bytes : &sums->lost_rx_bytes, bytes);
}

SEC("tp_btf/sock_send_length")
int BPF_PROG(payload_sent, struct sock* sk, int ret, int flags) {
  charge_payload(sk, ret, true);
  return 0;
}

SEC("tp_btf/sock_recv_length")
int BPF_PROG(payload_received, struct sock* sk, int ret, int flags) {
  /* A peek leaves the data queued: it is charged when it is really read. */
  if (flags & MSG_PEEK) return 0;
  charge_payload(sk, ret, false);
  return 0;
}

/* A socket belongs to the process that created it until a task of another process uses it;
 * this is what ties a connection's handshake and a receiver's first datagrams to a process. */
SEC("cgroup/sock_create")
int socket_created(struct bpf_sock* sk) {
  __u32 tgid = current_tgid();
  __u32* owner = bpf_sk_storage_get(&socket_owners, sk, 0, BPF_SK_STORAGE_GET_F_CREATE);
  if (owner) *owner = tgid;
  /* The process needs its entry before the socket's first packet is charged to it, and that
   * packet (a SYN, a datagram arriving before the first receive) can precede any payload. */
  current_process(tgid);
  return 1; /* allow */
}

static __always_inline void add_device_bytes(struct flightrec_process_traffic* traffic,
                                             __u32 ifindex, __u32 bytes) {
  if (ifindex == 0) return;
  for (int i = 0; i < FLIGHTREC_DEVICE_SLOTS; i++) {
    __u32 slot = traffic->devices[i].ifindex;
    if (slot == 0) {
      /* Two CPUs may claim the same free slot: the loser uses whatever the winner wrote. */
      __u32 before = __sync_val_compare_and_swap(&traffic->devices[i].ifindex, 0, ifindex);
      slot = before == 0 ? ifindex : before;
    }
    if (slot == ifindex) {
      __sync_fetch_and_add(&traffic->devices[i].bytes, bytes);
      return;
    }
  }
}

/* Charges one packet to the process `owner` names; false when there is no such process (no owner
 * known, or one the reader already reported as exited and removed). */
static __always_inline bool charge_packet(const __u32* owner, __u32 ip_bytes, __u32 ifindex,
                                          bool tx) {
  if (!owner) return false;
  __u32 tgid = *owner;
  struct flightrec_process_traffic* traffic = bpf_map_lookup_elem(&processes, &tgid);
  if (!traffic) return false;
  __sync_fetch_and_add(tx ? &traffic->tx_packets : &traffic->rx_packets, 1);
  add_device_bytes(traffic, ifindex, ip_bytes);
  return true;
}

/* Bytes from the network header on; at transmit skb->data is at the link-layer header. */
static __always_inline __u32 transmitted_ip_bytes(const struct sk_buff* skb) {
  __u32 len = skb->len;
  __u16 mac = skb->mac_header;
  __u16 network = skb->network_header;
  if (mac != MAC_HEADER_UNSET && network > mac && (__u32)(network - mac) < len)
    len -= network - mac;
  return len;
}

SEC("tp_btf/net_dev_start_xmit")
int BPF_PROG(packet_transmitted, const struct sk_buff* skb, const struct net_device* dev) {
  __u32 bytes = transmitted_ip_bytes(skb);
  /* Returns null for no socket and for request and time-wait sockets (not full sockets). */
  __u32* owner = bpf_sk_storage_get(&socket_owners, skb->sk, 0, 0);
  if (charge_packet(owner, bytes, dev->ifindex, true)) return 0;
  struct flightrec_traffic_totals* sums = machine_totals();
  if (!sums) return 0;
  __sync_fetch_and_add(&sums->unowned_tx_packets, 1);
  __sync_fetch_and_add(&sums->unowned_tx_bytes, bytes);
  return 0;
}

/* Every packet entering the stack; those not later charged to a process are unattributed. */
SEC("tp_btf/netif_receive_skb")
int BPF_PROG(packet_received, struct sk_buff* skb) {
  struct flightrec_traffic_totals* sums = machine_totals();
  if (!sums) return 0;
  __sync_fetch_and_add(&sums->device_rx_packets, 1);
  __sync_fetch_and_add(&sums->device_rx_bytes, skb->len);
  return 0;
}

/* Runs for every packet TCP or UDP (IPv4 or IPv6) is about to queue on a socket, in the socket
 * filter step: the first point where a received packet's socket is known. skb->len counts from
 * the network header here. */
SEC("cgroup_skb/ingress")
int packet_reached_socket(struct __sk_buff* skb) {
  struct bpf_sock* sk = skb->sk;
  if (!sk) return 1;
  sk = bpf_sk_fullsock(sk);
  if (!sk) return 1;
  if (sk->protocol != IPPROTO_TCP && sk->protocol != IPPROTO_UDP) return 1;
  __u32* owner = bpf_sk_storage_get(&socket_owners, sk, 0, 0);
  if (!charge_packet(owner, skb->len, skb->ifindex, false)) return 1;
  struct flightrec_traffic_totals* sums = machine_totals();
  if (!sums) return 1;
  __sync_fetch_and_add(&sums->owned_rx_packets, 1);
  __sync_fetch_and_add(&sums->owned_rx_bytes, skb->len);
  return 1; /* allow */
}

/* Only the last thread of a group finds signal->live at zero: then the process is gone. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(process_exited, struct task_struct* task) {
  if (BPF_CORE_READ(task, signal, live.counter) != 0) return 0;
  __u32 tgid = BPF_CORE_READ(task, tgid);
  struct flightrec_process_traffic* traffic = bpf_map_lookup_elem(&processes, &tgid);
  if (traffic) traffic->exited = 1;
  return 0;
}
