/* The layout of the maps network/bpf/traffic.bpf.c fills and network/src/ebpf/ reads: shared by the
 * BPF program (built against vmlinux.h) and the C++ loader (built against <linux/types.h>). */
#ifndef FLIGHTREC_NETWORK_BPF_TRAFFIC_MAPS_H
#define FLIGHTREC_NETWORK_BPF_TRAFFIC_MAPS_H

/* Bounds the kernel memory the maps take: processes beyond this are counted as unattributed. */
#define FLIGHTREC_MAX_PROCESSES 16384
/* Interfaces remembered per process, enough to name the one most of its traffic used. */
#define FLIGHTREC_DEVICE_SLOTS 4
#define FLIGHTREC_COMM_LEN 16

struct flightrec_device_bytes {
  __u32 ifindex; /* 0: free slot */
  __u32 reserved;
  __u64 bytes; /* IP bytes of this process's packets on the interface */
};

/* One process (thread group), keyed by tgid. */
struct flightrec_process_traffic {
  __u64 tx_bytes;   /* payload bytes its tasks sent (send returns) */
  __u64 rx_bytes;   /* payload bytes its tasks received (recv returns) */
  __u64 tx_packets; /* IP packets of its sockets handed to a device */
  __u64 rx_packets; /* IP packets delivered to its sockets */
  struct flightrec_device_bytes devices[FLIGHTREC_DEVICE_SLOTS];
  char comm[FLIGHTREC_COMM_LEN]; /* the thread-group leader's comm when first seen */
  __u32 exited;                  /* 1 once its last thread exited */
  __u32 reserved;
};

/* Machine-wide counters, one copy per CPU (summed by the reader). */
struct flightrec_traffic_totals {
  __u64 unowned_tx_packets; /* transmitted packets whose socket has no known owner (or none) */
  __u64 unowned_tx_bytes;   /* their IP bytes */
  __u64 device_rx_packets;  /* every packet that entered the stack from a device */
  __u64 device_rx_bytes;    /* their bytes from the network header on */
  __u64 owned_rx_packets;   /* received packets charged to a process */
  __u64 owned_rx_bytes;     /* their IP bytes */
  __u64 lost_tx_bytes;      /* payload sent by processes that did not fit in the process map */
  __u64 lost_rx_bytes;      /* payload received by such processes */
  __u64 process_map_full;   /* times a process could not be added to the process map */
};

#endif
