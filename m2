# HELP flightrec_cpu_aggregate_seconds_total CPU time summed over all CPUs per mode (the /proc/stat cpu line); guest time is included in user and nice.
# TYPE flightrec_cpu_aggregate_seconds_total counter
flightrec_cpu_aggregate_seconds_total{mode="user"} 22256.45
flightrec_cpu_aggregate_seconds_total{mode="nice"} 1229.82
flightrec_cpu_aggregate_seconds_total{mode="system"} 4622.56
flightrec_cpu_aggregate_seconds_total{mode="idle"} 5631.26
flightrec_cpu_aggregate_seconds_total{mode="iowait"} 59.78
flightrec_cpu_aggregate_seconds_total{mode="irq"} 0
flightrec_cpu_aggregate_seconds_total{mode="softirq"} 53.66
flightrec_cpu_aggregate_seconds_total{mode="steal"} 125.64
# HELP flightrec_cpu_aggregate_guest_seconds_total CPU time summed over all CPUs spent running guests.
# TYPE flightrec_cpu_aggregate_guest_seconds_total counter
flightrec_cpu_aggregate_guest_seconds_total{mode="user"} 0
flightrec_cpu_aggregate_guest_seconds_total{mode="nice"} 0
# HELP flightrec_cpu_seconds_total CPU time per CPU and mode (USER_HZ resolution); guest time is included in user and nice.
# TYPE flightrec_cpu_seconds_total counter
flightrec_cpu_seconds_total{cpu="0",mode="user"} 11045.71
flightrec_cpu_seconds_total{cpu="0",mode="nice"} 605.45
flightrec_cpu_seconds_total{cpu="0",mode="system"} 2289.68
flightrec_cpu_seconds_total{cpu="0",mode="idle"} 2968.95
flightrec_cpu_seconds_total{cpu="0",mode="iowait"} 14.84
flightrec_cpu_seconds_total{cpu="0",mode="irq"} 0
flightrec_cpu_seconds_total{cpu="0",mode="softirq"} 17.18
flightrec_cpu_seconds_total{cpu="0",mode="steal"} 63.27
flightrec_cpu_seconds_total{cpu="1",mode="user"} 11210.73
flightrec_cpu_seconds_total{cpu="1",mode="nice"} 624.36
flightrec_cpu_seconds_total{cpu="1",mode="system"} 2332.88
flightrec_cpu_seconds_total{cpu="1",mode="idle"} 2662.3
flightrec_cpu_seconds_total{cpu="1",mode="iowait"} 44.93
flightrec_cpu_seconds_total{cpu="1",mode="irq"} 0
flightrec_cpu_seconds_total{cpu="1",mode="softirq"} 36.47
flightrec_cpu_seconds_total{cpu="1",mode="steal"} 62.36
# HELP flightrec_cpu_guest_seconds_total CPU time per CPU spent running guests, already counted in cpu_seconds_total user and nice.
# TYPE flightrec_cpu_guest_seconds_total counter
flightrec_cpu_guest_seconds_total{cpu="0",mode="user"} 0
flightrec_cpu_guest_seconds_total{cpu="0",mode="nice"} 0
flightrec_cpu_guest_seconds_total{cpu="1",mode="user"} 0
flightrec_cpu_guest_seconds_total{cpu="1",mode="nice"} 0
# HELP flightrec_context_switches_total Context switches (ctxt).
# TYPE flightrec_context_switches_total counter
flightrec_context_switches_total 37779895
# HELP flightrec_interrupts_total Interrupts serviced, all sources (intr).
# TYPE flightrec_interrupts_total counter
flightrec_interrupts_total 24688138
# HELP flightrec_forks_total Processes and threads created (processes).
# TYPE flightrec_forks_total counter
flightrec_forks_total 391370
# HELP flightrec_procs_running Threads runnable right now.
# TYPE flightrec_procs_running gauge
flightrec_procs_running 4
# HELP flightrec_procs_blocked Threads blocked waiting for I/O.
# TYPE flightrec_procs_blocked gauge
flightrec_procs_blocked 0
# HELP flightrec_cgroup_cpu_usage_seconds_total CPU time used by all tasks, from the root cgroup's cpu.stat (usage_usec).
# TYPE flightrec_cgroup_cpu_usage_seconds_total counter
flightrec_cgroup_cpu_usage_seconds_total 28162.50336
# HELP flightrec_cgroup_cpu_user_seconds_total CPU time in user mode, from the root cgroup's cpu.stat (user_usec).
# TYPE flightrec_cgroup_cpu_user_seconds_total counter
flightrec_cgroup_cpu_user_seconds_total 23486.280766
# HELP flightrec_cgroup_cpu_system_seconds_total CPU time in kernel mode, from the root cgroup's cpu.stat (system_usec).
# TYPE flightrec_cgroup_cpu_system_seconds_total counter
flightrec_cgroup_cpu_system_seconds_total 4676.222594
# HELP flightrec_memory_total_bytes Usable RAM (MemTotal).
# TYPE flightrec_memory_total_bytes gauge
flightrec_memory_total_bytes 25275990016
# HELP flightrec_memory_free_bytes Unused RAM (MemFree).
# TYPE flightrec_memory_free_bytes gauge
flightrec_memory_free_bytes 24761651200
# HELP flightrec_memory_available_bytes RAM available for new work without swapping, as the kernel estimates it (MemAvailable).
# TYPE flightrec_memory_available_bytes gauge
flightrec_memory_available_bytes 24847495168
# HELP flightrec_memory_buffers_bytes Block device buffers (Buffers).
# TYPE flightrec_memory_buffers_bytes gauge
flightrec_memory_buffers_bytes 3489792
# HELP flightrec_memory_cached_bytes Page cache, excluding swap cache (Cached).
# TYPE flightrec_memory_cached_bytes gauge
flightrec_memory_cached_bytes 195682304
# HELP flightrec_memory_swap_cached_bytes Swapped-out memory also still in RAM (SwapCached).
# TYPE flightrec_memory_swap_cached_bytes gauge
flightrec_memory_swap_cached_bytes 0
# HELP flightrec_memory_active_bytes Recently used memory, not reclaimed unless needed (Active).
# TYPE flightrec_memory_active_bytes gauge
flightrec_memory_active_bytes 130977792
# HELP flightrec_memory_inactive_bytes Less recently used memory, first to be reclaimed (Inactive).
# TYPE flightrec_memory_inactive_bytes gauge
flightrec_memory_inactive_bytes 70148096
# HELP flightrec_memory_swap_total_bytes Swap space (SwapTotal).
# TYPE flightrec_memory_swap_total_bytes gauge
flightrec_memory_swap_total_bytes 0
# HELP flightrec_memory_swap_free_bytes Unused swap space (SwapFree).
# TYPE flightrec_memory_swap_free_bytes gauge
flightrec_memory_swap_free_bytes 0
# HELP flightrec_memory_dirty_bytes Memory waiting to be written back to disk (Dirty).
# TYPE flightrec_memory_dirty_bytes gauge
flightrec_memory_dirty_bytes 69632
# HELP flightrec_memory_writeback_bytes Memory being written back to disk (Writeback).
# TYPE flightrec_memory_writeback_bytes gauge
flightrec_memory_writeback_bytes 0
# HELP flightrec_memory_anon_pages_bytes Anonymous memory mapped into user page tables (AnonPages).
# TYPE flightrec_memory_anon_pages_bytes gauge
flightrec_memory_anon_pages_bytes 11608064
# HELP flightrec_memory_mapped_bytes Files mapped into memory (Mapped).
# TYPE flightrec_memory_mapped_bytes gauge
flightrec_memory_mapped_bytes 16424960
# HELP flightrec_memory_shmem_bytes Shared memory and tmpfs (Shmem).
# TYPE flightrec_memory_shmem_bytes gauge
flightrec_memory_shmem_bytes 9592832
# HELP flightrec_memory_slab_bytes Kernel slab caches (Slab).
# TYPE flightrec_memory_slab_bytes gauge
flightrec_memory_slab_bytes 243523584
# HELP flightrec_memory_slab_reclaimable_bytes Reclaimable part of the slab caches (SReclaimable).
# TYPE flightrec_memory_slab_reclaimable_bytes gauge
flightrec_memory_slab_reclaimable_bytes 208240640
# HELP flightrec_memory_slab_unreclaimable_bytes Unreclaimable part of the slab caches (SUnreclaim).
# TYPE flightrec_memory_slab_unreclaimable_bytes gauge
flightrec_memory_slab_unreclaimable_bytes 35282944
# HELP flightrec_memory_kernel_stack_bytes Kernel stacks of all tasks (KernelStack).
# TYPE flightrec_memory_kernel_stack_bytes gauge
flightrec_memory_kernel_stack_bytes 1933312
# HELP flightrec_memory_page_tables_bytes Page tables (PageTables).
# TYPE flightrec_memory_page_tables_bytes gauge
flightrec_memory_page_tables_bytes 1253376
# HELP flightrec_memory_committed_as_bytes Memory committed to allocations, an estimate of what would be needed to never OOM (Committed_AS).
# TYPE flightrec_memory_committed_as_bytes gauge
flightrec_memory_committed_as_bytes 88649728
# HELP flightrec_memory_huge_pages Huge pages in the pool (HugePages_Total).
# TYPE flightrec_memory_huge_pages gauge
flightrec_memory_huge_pages 0
# HELP flightrec_memory_huge_pages_free Huge pages in the pool not yet allocated (HugePages_Free).
# TYPE flightrec_memory_huge_pages_free gauge
flightrec_memory_huge_pages_free 0
# HELP flightrec_memory_huge_page_size_bytes Default huge page size (Hugepagesize).
# TYPE flightrec_memory_huge_page_size_bytes gauge
flightrec_memory_huge_page_size_bytes 2097152
# HELP flightrec_load1 1-minute load average (updated every 5 s).
# TYPE flightrec_load1 gauge
flightrec_load1 0.1
# HELP flightrec_load5 5-minute load average (updated every 5 s).
# TYPE flightrec_load5 gauge
flightrec_load5 0.88
# HELP flightrec_load15 15-minute load average (updated every 5 s).
# TYPE flightrec_load15 gauge
flightrec_load15 4.13
# HELP flightrec_threads_runnable Threads runnable right now, from /proc/loadavg.
# TYPE flightrec_threads_runnable gauge
flightrec_threads_runnable 4
# HELP flightrec_threads Threads that exist, from /proc/loadavg.
# TYPE flightrec_threads gauge
flightrec_threads 117
# HELP flightrec_pressure_some_seconds_total Time at least one task was stalled on the resource (PSI some total).
# TYPE flightrec_pressure_some_seconds_total counter
flightrec_pressure_some_seconds_total{resource="cpu"} 4169.568197
flightrec_pressure_some_seconds_total{resource="memory"} 0
flightrec_pressure_some_seconds_total{resource="io"} 51.507977
# HELP flightrec_pressure_full_seconds_total Time all non-idle tasks were stalled on the resource at once (PSI full total).
# TYPE flightrec_pressure_full_seconds_total counter
flightrec_pressure_full_seconds_total{resource="cpu"} 0
flightrec_pressure_full_seconds_total{resource="memory"} 0
flightrec_pressure_full_seconds_total{resource="io"} 22.103537
# HELP flightrec_page_faults_total Page faults, minor and major (pgfault).
# TYPE flightrec_page_faults_total counter
flightrec_page_faults_total 345491065
# HELP flightrec_major_page_faults_total Page faults that needed I/O (pgmajfault).
# TYPE flightrec_major_page_faults_total counter
flightrec_major_page_faults_total 17365
# HELP flightrec_swap_in_bytes_total Memory swapped in from swap space (pswpin, in pages).
# TYPE flightrec_swap_in_bytes_total counter
flightrec_swap_in_bytes_total 0
# HELP flightrec_swap_out_bytes_total Memory swapped out to swap space (pswpout, in pages).
# TYPE flightrec_swap_out_bytes_total counter
flightrec_swap_out_bytes_total 0
# HELP flightrec_paged_in_bytes_total Data paged in from block devices (pgpgin, in KiB).
# TYPE flightrec_paged_in_bytes_total counter
flightrec_paged_in_bytes_total 8132277248
# HELP flightrec_paged_out_bytes_total Data paged out to block devices (pgpgout, in KiB).
# TYPE flightrec_paged_out_bytes_total counter
flightrec_paged_out_bytes_total 31828525056
# HELP flightrec_oom_kills_total Processes killed by the kernel's OOM killer (oom_kill).
# TYPE flightrec_oom_kills_total counter
flightrec_oom_kills_total 0
# HELP flightrec_disk_reads_completed_total Reads completed.
# TYPE flightrec_disk_reads_completed_total counter
flightrec_disk_reads_completed_total{device="vda"} 498714
flightrec_disk_reads_completed_total{device="zram0"} 0
# HELP flightrec_disk_reads_merged_total Adjacent reads merged before being issued.
# TYPE flightrec_disk_reads_merged_total counter
flightrec_disk_reads_merged_total{device="vda"} 41956
flightrec_disk_reads_merged_total{device="zram0"} 0
# HELP flightrec_disk_read_bytes_total Bytes read.
# TYPE flightrec_disk_read_bytes_total counter
flightrec_disk_read_bytes_total{device="vda"} 8132277248
flightrec_disk_read_bytes_total{device="zram0"} 0
# HELP flightrec_disk_read_time_seconds_total Time spent on reads, summed over requests.
# TYPE flightrec_disk_read_time_seconds_total counter
flightrec_disk_read_time_seconds_total{device="vda"} 1643.106
flightrec_disk_read_time_seconds_total{device="zram0"} 0
# HELP flightrec_disk_writes_completed_total Writes completed.
# TYPE flightrec_disk_writes_completed_total counter
flightrec_disk_writes_completed_total{device="vda"} 561980
flightrec_disk_writes_completed_total{device="zram0"} 0
# HELP flightrec_disk_writes_merged_total Adjacent writes merged before being issued.
# TYPE flightrec_disk_writes_merged_total counter
flightrec_disk_writes_merged_total{device="vda"} 235551
flightrec_disk_writes_merged_total{device="zram0"} 0
# HELP flightrec_disk_written_bytes_total Bytes written.
# TYPE flightrec_disk_written_bytes_total counter
flightrec_disk_written_bytes_total{device="vda"} 31828525056
flightrec_disk_written_bytes_total{device="zram0"} 0
# HELP flightrec_disk_write_time_seconds_total Time spent on writes, summed over requests.
# TYPE flightrec_disk_write_time_seconds_total counter
flightrec_disk_write_time_seconds_total{device="vda"} 609.288
flightrec_disk_write_time_seconds_total{device="zram0"} 0
# HELP flightrec_disk_io_now I/Os in progress.
# TYPE flightrec_disk_io_now gauge
flightrec_disk_io_now{device="vda"} 0
flightrec_disk_io_now{device="zram0"} 0
# HELP flightrec_disk_io_time_seconds_total Time the device had I/O in progress.
# TYPE flightrec_disk_io_time_seconds_total counter
flightrec_disk_io_time_seconds_total{device="vda"} 286.532
flightrec_disk_io_time_seconds_total{device="zram0"} 0
# HELP flightrec_disk_io_time_weighted_seconds_total I/O time weighted by the number of I/Os in progress.
# TYPE flightrec_disk_io_time_weighted_seconds_total counter
flightrec_disk_io_time_weighted_seconds_total{device="vda"} 2408.605
flightrec_disk_io_time_weighted_seconds_total{device="zram0"} 0
# HELP flightrec_disk_discards_completed_total Discards completed (Linux 4.18+).
# TYPE flightrec_disk_discards_completed_total counter
flightrec_disk_discards_completed_total{device="vda"} 529898
flightrec_disk_discards_completed_total{device="zram0"} 0
# HELP flightrec_disk_discards_merged_total Adjacent discards merged (Linux 4.18+).
# TYPE flightrec_disk_discards_merged_total counter
flightrec_disk_discards_merged_total{device="vda"} 154
flightrec_disk_discards_merged_total{device="zram0"} 0
# HELP flightrec_disk_discarded_bytes_total Bytes discarded (Linux 4.18+).
# TYPE flightrec_disk_discarded_bytes_total counter
flightrec_disk_discarded_bytes_total{device="vda"} 40463482880
flightrec_disk_discarded_bytes_total{device="zram0"} 0
# HELP flightrec_disk_discard_time_seconds_total Time spent on discards (Linux 4.18+).
# TYPE flightrec_disk_discard_time_seconds_total counter
flightrec_disk_discard_time_seconds_total{device="vda"} 132.776
flightrec_disk_discard_time_seconds_total{device="zram0"} 0
# HELP flightrec_disk_flush_requests_total Flush requests completed (Linux 5.5+).
# TYPE flightrec_disk_flush_requests_total counter
flightrec_disk_flush_requests_total{device="vda"} 24284
flightrec_disk_flush_requests_total{device="zram0"} 0
# HELP flightrec_disk_flush_requests_time_seconds_total Time spent on flush requests (Linux 5.5+).
# TYPE flightrec_disk_flush_requests_time_seconds_total counter
flightrec_disk_flush_requests_time_seconds_total{device="vda"} 23.434
flightrec_disk_flush_requests_time_seconds_total{device="zram0"} 0
# HELP flightrec_network_receive_bytes_total Bytes received.
# TYPE flightrec_network_receive_bytes_total counter
flightrec_network_receive_bytes_total{device="lo"} 2940500361
flightrec_network_receive_bytes_total{device="ifb0"} 0
flightrec_network_receive_bytes_total{device="ifb1"} 0
flightrec_network_receive_bytes_total{device="eth0"} 239097236
# HELP flightrec_network_receive_packets_total Packets received.
# TYPE flightrec_network_receive_packets_total counter
flightrec_network_receive_packets_total{device="lo"} 669489
flightrec_network_receive_packets_total{device="ifb0"} 0
flightrec_network_receive_packets_total{device="ifb1"} 0
flightrec_network_receive_packets_total{device="eth0"} 8916
# HELP flightrec_network_receive_errs_total Receive errors.
# TYPE flightrec_network_receive_errs_total counter
flightrec_network_receive_errs_total{device="lo"} 0
flightrec_network_receive_errs_total{device="ifb0"} 0
flightrec_network_receive_errs_total{device="ifb1"} 0
flightrec_network_receive_errs_total{device="eth0"} 0
# HELP flightrec_network_receive_drop_total Received packets dropped.
# TYPE flightrec_network_receive_drop_total counter
flightrec_network_receive_drop_total{device="lo"} 0
flightrec_network_receive_drop_total{device="ifb0"} 0
flightrec_network_receive_drop_total{device="ifb1"} 0
flightrec_network_receive_drop_total{device="eth0"} 0
# HELP flightrec_network_receive_fifo_total Receive FIFO overruns.
# TYPE flightrec_network_receive_fifo_total counter
flightrec_network_receive_fifo_total{device="lo"} 0
flightrec_network_receive_fifo_total{device="ifb0"} 0
flightrec_network_receive_fifo_total{device="ifb1"} 0
flightrec_network_receive_fifo_total{device="eth0"} 0
# HELP flightrec_network_receive_frame_total Received packets with framing errors.
# TYPE flightrec_network_receive_frame_total counter
flightrec_network_receive_frame_total{device="lo"} 0
flightrec_network_receive_frame_total{device="ifb0"} 0
flightrec_network_receive_frame_total{device="ifb1"} 0
flightrec_network_receive_frame_total{device="eth0"} 0
# HELP flightrec_network_receive_compressed_total Compressed packets received.
# TYPE flightrec_network_receive_compressed_total counter
flightrec_network_receive_compressed_total{device="lo"} 0
flightrec_network_receive_compressed_total{device="ifb0"} 0
flightrec_network_receive_compressed_total{device="ifb1"} 0
flightrec_network_receive_compressed_total{device="eth0"} 0
# HELP flightrec_network_receive_multicast_total Multicast packets received.
# TYPE flightrec_network_receive_multicast_total counter
flightrec_network_receive_multicast_total{device="lo"} 0
flightrec_network_receive_multicast_total{device="ifb0"} 0
flightrec_network_receive_multicast_total{device="ifb1"} 0
flightrec_network_receive_multicast_total{device="eth0"} 0
# HELP flightrec_network_transmit_bytes_total Bytes sent.
# TYPE flightrec_network_transmit_bytes_total counter
flightrec_network_transmit_bytes_total{device="lo"} 2940500361
flightrec_network_transmit_bytes_total{device="ifb0"} 0
flightrec_network_transmit_bytes_total{device="ifb1"} 0
flightrec_network_transmit_bytes_total{device="eth0"} 475612
# HELP flightrec_network_transmit_packets_total Packets sent.
# TYPE flightrec_network_transmit_packets_total counter
flightrec_network_transmit_packets_total{device="lo"} 669489
flightrec_network_transmit_packets_total{device="ifb0"} 0
flightrec_network_transmit_packets_total{device="ifb1"} 0
flightrec_network_transmit_packets_total{device="eth0"} 5952
# HELP flightrec_network_transmit_errs_total Transmit errors.
# TYPE flightrec_network_transmit_errs_total counter
flightrec_network_transmit_errs_total{device="lo"} 0
flightrec_network_transmit_errs_total{device="ifb0"} 0
flightrec_network_transmit_errs_total{device="ifb1"} 0
flightrec_network_transmit_errs_total{device="eth0"} 0
# HELP flightrec_network_transmit_drop_total Outgoing packets dropped.
# TYPE flightrec_network_transmit_drop_total counter
flightrec_network_transmit_drop_total{device="lo"} 0
flightrec_network_transmit_drop_total{device="ifb0"} 0
flightrec_network_transmit_drop_total{device="ifb1"} 0
flightrec_network_transmit_drop_total{device="eth0"} 0
# HELP flightrec_network_transmit_fifo_total Transmit FIFO overruns.
# TYPE flightrec_network_transmit_fifo_total counter
flightrec_network_transmit_fifo_total{device="lo"} 0
flightrec_network_transmit_fifo_total{device="ifb0"} 0
flightrec_network_transmit_fifo_total{device="ifb1"} 0
flightrec_network_transmit_fifo_total{device="eth0"} 0
# HELP flightrec_network_transmit_colls_total Collisions detected.
# TYPE flightrec_network_transmit_colls_total counter
flightrec_network_transmit_colls_total{device="lo"} 0
flightrec_network_transmit_colls_total{device="ifb0"} 0
flightrec_network_transmit_colls_total{device="ifb1"} 0
flightrec_network_transmit_colls_total{device="eth0"} 0
# HELP flightrec_network_transmit_carrier_total Carrier losses.
# TYPE flightrec_network_transmit_carrier_total counter
flightrec_network_transmit_carrier_total{device="lo"} 0
flightrec_network_transmit_carrier_total{device="ifb0"} 0
flightrec_network_transmit_carrier_total{device="ifb1"} 0
flightrec_network_transmit_carrier_total{device="eth0"} 0
# HELP flightrec_network_transmit_compressed_total Compressed packets sent.
# TYPE flightrec_network_transmit_compressed_total counter
flightrec_network_transmit_compressed_total{device="lo"} 0
flightrec_network_transmit_compressed_total{device="ifb0"} 0
flightrec_network_transmit_compressed_total{device="ifb1"} 0
flightrec_network_transmit_compressed_total{device="eth0"} 0
# HELP flightrec_cpu_busy_ratio Share of time CPUs were busy (not idle or iowait), per tick over a trailing window (see docs/METRICS.md). Min, max and mean of the per-tick values over the window.
# TYPE flightrec_cpu_busy_ratio gauge
flightrec_cpu_busy_ratio{cpu="total",window="15s",agg="min"} 0
flightrec_cpu_busy_ratio{cpu="total",window="15s",agg="max"} 0.6008908507307509
flightrec_cpu_busy_ratio{cpu="total",window="15s",agg="mean"} 0.004926391866949577
flightrec_cpu_busy_ratio{cpu="0",window="15s",agg="min"} 0
flightrec_cpu_busy_ratio{cpu="0",window="15s",agg="max"} 0.2000426610979057
flightrec_cpu_busy_ratio{cpu="0",window="15s",agg="mean"} 0.007482245266514519
flightrec_cpu_busy_ratio{cpu="1",window="15s",agg="min"} 0
flightrec_cpu_busy_ratio{cpu="1",window="15s",agg="max"} 0.3001035087011861
flightrec_cpu_busy_ratio{cpu="1",window="15s",agg="mean"} 0.004153368799303112
# HELP flightrec_memory_used_bytes MemTotal - MemAvailable. Min, max and mean of the per-tick values over the window.
# TYPE flightrec_memory_used_bytes gauge
flightrec_memory_used_bytes{window="15s",agg="min"} 426438656
flightrec_memory_used_bytes{window="15s",agg="max"} 431198208
flightrec_memory_used_bytes{window="15s",agg="mean"} 428037427.7446808
# HELP flightrec_memory_used_ratio (MemTotal - MemAvailable) / MemTotal. Min, max and mean of the per-tick values over the window.
# TYPE flightrec_memory_used_ratio gauge
flightrec_memory_used_ratio{window="15s",agg="min"} 0.01687129389313967
flightrec_memory_used_ratio{window="15s",agg="max"} 0.01705959718005294
flightrec_memory_used_ratio{window="15s",agg="mean"} 0.01693454647963257
# HELP flightrec_pressure_stall_ratio Share of time tasks stalled on the resource (PSI), per tick. Min, max and mean of the per-tick values over the window.
# TYPE flightrec_pressure_stall_ratio gauge
flightrec_pressure_stall_ratio{resource="cpu",kind="some",window="15s",agg="min"} 0
flightrec_pressure_stall_ratio{resource="cpu",kind="some",window="15s",agg="max"} 0.3454793889836993
flightrec_pressure_stall_ratio{resource="cpu",kind="some",window="15s",agg="mean"} 0.0001760454865734426
flightrec_pressure_stall_ratio{resource="memory",kind="some",window="15s",agg="min"} 0
flightrec_pressure_stall_ratio{resource="memory",kind="some",window="15s",agg="max"} 0
flightrec_pressure_stall_ratio{resource="memory",kind="some",window="15s",agg="mean"} 0
flightrec_pressure_stall_ratio{resource="io",kind="some",window="15s",agg="min"} 0
flightrec_pressure_stall_ratio{resource="io",kind="some",window="15s",agg="max"} 0.5016807673701058
flightrec_pressure_stall_ratio{resource="io",kind="some",window="15s",agg="mean"} 0.000493358486620348
flightrec_pressure_stall_ratio{resource="cpu",kind="full",window="15s",agg="min"} 0
flightrec_pressure_stall_ratio{resource="cpu",kind="full",window="15s",agg="max"} 0
flightrec_pressure_stall_ratio{resource="cpu",kind="full",window="15s",agg="mean"} 0
flightrec_pressure_stall_ratio{resource="memory",kind="full",window="15s",agg="min"} 0
flightrec_pressure_stall_ratio{resource="memory",kind="full",window="15s",agg="max"} 0
flightrec_pressure_stall_ratio{resource="memory",kind="full",window="15s",agg="mean"} 0
flightrec_pressure_stall_ratio{resource="io",kind="full",window="15s",agg="min"} 0
flightrec_pressure_stall_ratio{resource="io",kind="full",window="15s",agg="max"} 0.4913418177848752
flightrec_pressure_stall_ratio{resource="io",kind="full",window="15s",agg="mean"} 0.0004673231947508822
# HELP flightrec_disk_read_bytes_per_second Byte rate per tick. Min, max and mean of the per-tick values over the window.
# TYPE flightrec_disk_read_bytes_per_second gauge
flightrec_disk_read_bytes_per_second{device="vda",window="15s",agg="min"} 0
flightrec_disk_read_bytes_per_second{device="vda",window="15s",agg="max"} 571840585.4109302
flightrec_disk_read_bytes_per_second{device="vda",window="15s",agg="mean"} 395880.2170884479
flightrec_disk_read_bytes_per_second{device="zram0",window="15s",agg="min"} 0
flightrec_disk_read_bytes_per_second{device="zram0",window="15s",agg="max"} 0
flightrec_disk_read_bytes_per_second{device="zram0",window="15s",agg="mean"} 0
# HELP flightrec_disk_written_bytes_per_second Byte rate per tick. Min, max and mean of the per-tick values over the window.
# TYPE flightrec_disk_written_bytes_per_second gauge
flightrec_disk_written_bytes_per_second{device="vda",window="15s",agg="min"} 0
flightrec_disk_written_bytes_per_second{device="vda",window="15s",agg="max"} 30509492.13166454
flightrec_disk_written_bytes_per_second{device="vda",window="15s",agg="mean"} 10146.1563457481
flightrec_disk_written_bytes_per_second{device="zram0",window="15s",agg="min"} 0
flightrec_disk_written_bytes_per_second{device="zram0",window="15s",agg="max"} 0
flightrec_disk_written_bytes_per_second{device="zram0",window="15s",agg="mean"} 0
# HELP flightrec_network_receive_bytes_per_second Byte rate per tick. Min, max and mean of the per-tick values over the window.
# TYPE flightrec_network_receive_bytes_per_second gauge
flightrec_network_receive_bytes_per_second{device="lo",window="15s",agg="min"} 0
flightrec_network_receive_bytes_per_second{device="lo",window="15s",agg="max"} 11858186.47215773
flightrec_network_receive_bytes_per_second{device="lo",window="15s",agg="mean"} 3963.52024655188
flightrec_network_receive_bytes_per_second{device="ifb0",window="15s",agg="min"} 0
flightrec_network_receive_bytes_per_second{device="ifb0",window="15s",agg="max"} 0
flightrec_network_receive_bytes_per_second{device="ifb0",window="15s",agg="mean"} 0
flightrec_network_receive_bytes_per_second{device="ifb1",window="15s",agg="min"} 0
flightrec_network_receive_bytes_per_second{device="ifb1",window="15s",agg="max"} 0
flightrec_network_receive_bytes_per_second{device="ifb1",window="15s",agg="mean"} 0
flightrec_network_receive_bytes_per_second{device="eth0",window="15s",agg="min"} 0
flightrec_network_receive_bytes_per_second{device="eth0",window="15s",agg="max"} 0
flightrec_network_receive_bytes_per_second{device="eth0",window="15s",agg="mean"} 0
# HELP flightrec_network_transmit_bytes_per_second Byte rate per tick. Min, max and mean of the per-tick values over the window.
# TYPE flightrec_network_transmit_bytes_per_second gauge
flightrec_network_transmit_bytes_per_second{device="lo",window="15s",agg="min"} 0
flightrec_network_transmit_bytes_per_second{device="lo",window="15s",agg="max"} 11858186.47215773
flightrec_network_transmit_bytes_per_second{device="lo",window="15s",agg="mean"} 3963.52024655188
flightrec_network_transmit_bytes_per_second{device="ifb0",window="15s",agg="min"} 0
flightrec_network_transmit_bytes_per_second{device="ifb0",window="15s",agg="max"} 0
flightrec_network_transmit_bytes_per_second{device="ifb0",window="15s",agg="mean"} 0
flightrec_network_transmit_bytes_per_second{device="ifb1",window="15s",agg="min"} 0
flightrec_network_transmit_bytes_per_second{device="ifb1",window="15s",agg="max"} 0
flightrec_network_transmit_bytes_per_second{device="ifb1",window="15s",agg="mean"} 0
flightrec_network_transmit_bytes_per_second{device="eth0",window="15s",agg="min"} 0
flightrec_network_transmit_bytes_per_second{device="eth0",window="15s",agg="max"} 0
flightrec_network_transmit_bytes_per_second{device="eth0",window="15s",agg="mean"} 0
# HELP flightrec_cpu_busy_tick_ratio Per-tick values of flightrec_cpu_busy_ratio since start: one observation per sampler tick.
# TYPE flightrec_cpu_busy_tick_ratio histogram
flightrec_cpu_busy_tick_ratio_count{cpu="total"} 3007
flightrec_cpu_busy_tick_ratio_sum{cpu="total"} 14.81366034391738
flightrec_cpu_busy_tick_ratio_bucket{cpu="total",le="0.1"} 2941
flightrec_cpu_busy_tick_ratio_bucket{cpu="total",le="0.25"} 2996
flightrec_cpu_busy_tick_ratio_bucket{cpu="total",le="0.5"} 3004
flightrec_cpu_busy_tick_ratio_bucket{cpu="total",le="0.75"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="total",le="0.9"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="total",le="0.95"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="total",le="0.99"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="total",le="1"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="total",le="+Inf"} 3007
flightrec_cpu_busy_tick_ratio_count{cpu="0"} 3007
flightrec_cpu_busy_tick_ratio_sum{cpu="0"} 22.49911151640915
flightrec_cpu_busy_tick_ratio_bucket{cpu="0",le="0.1"} 2895
flightrec_cpu_busy_tick_ratio_bucket{cpu="0",le="0.25"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="0",le="0.5"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="0",le="0.75"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="0",le="0.9"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="0",le="0.95"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="0",le="0.99"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="0",le="1"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="0",le="+Inf"} 3007
flightrec_cpu_busy_tick_ratio_count{cpu="1"} 3007
flightrec_cpu_busy_tick_ratio_sum{cpu="1"} 12.48917997950446
flightrec_cpu_busy_tick_ratio_bucket{cpu="1",le="0.1"} 2949
flightrec_cpu_busy_tick_ratio_bucket{cpu="1",le="0.25"} 2989
flightrec_cpu_busy_tick_ratio_bucket{cpu="1",le="0.5"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="1",le="0.75"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="1",le="0.9"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="1",le="0.95"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="1",le="0.99"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="1",le="1"} 3007
flightrec_cpu_busy_tick_ratio_bucket{cpu="1",le="+Inf"} 3007
# HELP flightrec_memory_used_tick_ratio Per-tick values of flightrec_memory_used_ratio since start: one observation per sampler tick.
# TYPE flightrec_memory_used_tick_ratio histogram
flightrec_memory_used_tick_ratio_count 3008
flightrec_memory_used_tick_ratio_sum 50.93911581073321
flightrec_memory_used_tick_ratio_bucket{le="0.1"} 3008
flightrec_memory_used_tick_ratio_bucket{le="0.25"} 3008
flightrec_memory_used_tick_ratio_bucket{le="0.5"} 3008
flightrec_memory_used_tick_ratio_bucket{le="0.75"} 3008
flightrec_memory_used_tick_ratio_bucket{le="0.9"} 3008
flightrec_memory_used_tick_ratio_bucket{le="0.95"} 3008
flightrec_memory_used_tick_ratio_bucket{le="0.99"} 3008
flightrec_memory_used_tick_ratio_bucket{le="1"} 3008
flightrec_memory_used_tick_ratio_bucket{le="+Inf"} 3008
# HELP flightrec_pressure_stall_tick_ratio Per-tick values of flightrec_pressure_stall_ratio since start: one observation per sampler tick.
# TYPE flightrec_pressure_stall_tick_ratio histogram
flightrec_pressure_stall_tick_ratio_count{resource="cpu",kind="some"} 3007
flightrec_pressure_stall_tick_ratio_sum{resource="cpu",kind="some"} 0.5293687781263419
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="some",le="0.1"} 3005
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="some",le="0.25"} 3006
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="some",le="0.5"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="some",le="0.75"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="some",le="0.9"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="some",le="0.95"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="some",le="0.99"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="some",le="1"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="some",le="+Inf"} 3007
flightrec_pressure_stall_tick_ratio_count{resource="memory",kind="some"} 3007
flightrec_pressure_stall_tick_ratio_sum{resource="memory",kind="some"} 0
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="some",le="0.1"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="some",le="0.25"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="some",le="0.5"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="some",le="0.75"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="some",le="0.9"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="some",le="0.95"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="some",le="0.99"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="some",le="1"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="some",le="+Inf"} 3007
flightrec_pressure_stall_tick_ratio_count{resource="io",kind="some"} 3007
flightrec_pressure_stall_tick_ratio_sum{resource="io",kind="some"} 1.483528969267387
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="some",le="0.1"} 3004
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="some",le="0.25"} 3004
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="some",le="0.5"} 3006
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="some",le="0.75"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="some",le="0.9"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="some",le="0.95"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="some",le="0.99"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="some",le="1"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="some",le="+Inf"} 3007
flightrec_pressure_stall_tick_ratio_count{resource="cpu",kind="full"} 3007
flightrec_pressure_stall_tick_ratio_sum{resource="cpu",kind="full"} 0
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="full",le="0.1"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="full",le="0.25"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="full",le="0.5"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="full",le="0.75"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="full",le="0.9"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="full",le="0.95"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="full",le="0.99"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="full",le="1"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="cpu",kind="full",le="+Inf"} 3007
flightrec_pressure_stall_tick_ratio_count{resource="memory",kind="full"} 3007
flightrec_pressure_stall_tick_ratio_sum{resource="memory",kind="full"} 0
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="full",le="0.1"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="full",le="0.25"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="full",le="0.5"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="full",le="0.75"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="full",le="0.9"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="full",le="0.95"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="full",le="0.99"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="full",le="1"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="memory",kind="full",le="+Inf"} 3007
flightrec_pressure_stall_tick_ratio_count{resource="io",kind="full"} 3007
flightrec_pressure_stall_tick_ratio_sum{resource="io",kind="full"} 1.405240846615903
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="full",le="0.1"} 3004
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="full",le="0.25"} 3004
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="full",le="0.5"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="full",le="0.75"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="full",le="0.9"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="full",le="0.95"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="full",le="0.99"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="full",le="1"} 3007
flightrec_pressure_stall_tick_ratio_bucket{resource="io",kind="full",le="+Inf"} 3007
# HELP flightrec_build_info flightrec's version, revision and compiler; always 1.
# TYPE flightrec_build_info gauge
flightrec_build_info{version="0.1.0",revision="de35a7386a89",compiler="GNU 12.2.0"} 1
# HELP flightrec_start_time_seconds When this flightrec process started (Unix time).
# TYPE flightrec_start_time_seconds gauge
flightrec_start_time_seconds 1796151005.129143
# HELP flightrec_sampler_rate_seconds Period of the sampler's fast tier (sampler.rate).
# TYPE flightrec_sampler_rate_seconds gauge
flightrec_sampler_rate_seconds 0.004
# HELP flightrec_export_window_seconds Span of the window aggregates (export.window).
# TYPE flightrec_export_window_seconds gauge
flightrec_export_window_seconds 15
# HELP flightrec_sampler_ticks_total Ticks the sampler read every source in.
# TYPE flightrec_sampler_ticks_total counter
flightrec_sampler_ticks_total 3012
# HELP flightrec_sampler_late_ticks_total Ticks that started more than half a period after their deadline.
# TYPE flightrec_sampler_late_ticks_total counter
flightrec_sampler_late_ticks_total 3
# HELP flightrec_sampler_missed_ticks_total Deadlines that passed without a tick (the sampler fell a whole period behind).
# TYPE flightrec_sampler_missed_ticks_total counter
flightrec_sampler_missed_ticks_total 0
# HELP flightrec_sampler_queue_overflows_total Frames dropped because the recorder fell behind and the queue was full.
# TYPE flightrec_sampler_queue_overflows_total counter
flightrec_sampler_queue_overflows_total 0
# HELP flightrec_sampler_elapsed_seconds Time from arming the sampler's timer to its newest tick; divided by flightrec_sampler_rate_seconds, the deadlines passed by then: ticks + missed ticks.
# TYPE flightrec_sampler_elapsed_seconds gauge
flightrec_sampler_elapsed_seconds 12.048045259
# HELP flightrec_sampler_realtime Whether the sampler thread runs SCHED_FIFO (sampler.realtime and permitted): 1 or 0.
# TYPE flightrec_sampler_realtime gauge
flightrec_sampler_realtime 0
# HELP flightrec_sampler_tick_lateness_seconds How long after its deadline each tick started.
# TYPE flightrec_sampler_tick_lateness_seconds histogram
flightrec_sampler_tick_lateness_seconds_count 3012
flightrec_sampler_tick_lateness_seconds_sum 0.20895198
flightrec_sampler_tick_lateness_seconds_bucket{le="2.5e-05"} 19
flightrec_sampler_tick_lateness_seconds_bucket{le="5e-05"} 699
flightrec_sampler_tick_lateness_seconds_bucket{le="9.999999999999999e-05"} 2877
flightrec_sampler_tick_lateness_seconds_bucket{le="0.00025"} 2994
flightrec_sampler_tick_lateness_seconds_bucket{le="0.0005"} 3000
flightrec_sampler_tick_lateness_seconds_bucket{le="0.001"} 3005
flightrec_sampler_tick_lateness_seconds_bucket{le="0.0025"} 3012
flightrec_sampler_tick_lateness_seconds_bucket{le="0.005"} 3012
flightrec_sampler_tick_lateness_seconds_bucket{le="0.01"} 3012
flightrec_sampler_tick_lateness_seconds_bucket{le="0.09999999999999999"} 3012
flightrec_sampler_tick_lateness_seconds_bucket{le="+Inf"} 3012
# HELP flightrec_source_rate_seconds How often each source is read (sources.<name>.rate in whole sampler ticks).
# TYPE flightrec_source_rate_seconds gauge
flightrec_source_rate_seconds{source="stat"} 0.004
flightrec_source_rate_seconds{source="cgroup_cpu"} 0.004
flightrec_source_rate_seconds{source="meminfo"} 0.008
flightrec_source_rate_seconds{source="loadavg"} 0.02
flightrec_source_rate_seconds{source="pressure"} 0.004
flightrec_source_rate_seconds{source="vmstat"} 0.02
flightrec_source_rate_seconds{source="diskstats"} 0.008
flightrec_source_rate_seconds{source="netdev"} 0.008
# HELP flightrec_source_reads_total Reads of each source.
# TYPE flightrec_source_reads_total counter
flightrec_source_reads_total{source="stat"} 3012
flightrec_source_reads_total{source="cgroup_cpu"} 3012
flightrec_source_reads_total{source="meminfo"} 1506
flightrec_source_reads_total{source="loadavg"} 603
flightrec_source_reads_total{source="pressure"} 3012
flightrec_source_reads_total{source="vmstat"} 603
flightrec_source_reads_total{source="diskstats"} 1506
flightrec_source_reads_total{source="netdev"} 1507
# HELP flightrec_source_read_failures_total Reads of each source that yielded nothing (file unreadable or unparseable).
# TYPE flightrec_source_read_failures_total counter
flightrec_source_read_failures_total{source="stat"} 0
flightrec_source_read_failures_total{source="cgroup_cpu"} 0
flightrec_source_read_failures_total{source="meminfo"} 0
flightrec_source_read_failures_total{source="loadavg"} 0
flightrec_source_read_failures_total{source="pressure"} 0
flightrec_source_read_failures_total{source="vmstat"} 0
flightrec_source_read_failures_total{source="diskstats"} 0
flightrec_source_read_failures_total{source="netdev"} 0
# HELP flightrec_source_partial_reads_total Reads of each source that missed some values (a malformed or vanished line).
# TYPE flightrec_source_partial_reads_total counter
flightrec_source_partial_reads_total{source="stat"} 0
flightrec_source_partial_reads_total{source="cgroup_cpu"} 0
flightrec_source_partial_reads_total{source="meminfo"} 0
flightrec_source_partial_reads_total{source="loadavg"} 0
flightrec_source_partial_reads_total{source="pressure"} 0
flightrec_source_partial_reads_total{source="vmstat"} 0
flightrec_source_partial_reads_total{source="diskstats"} 0
flightrec_source_partial_reads_total{source="netdev"} 0
# HELP flightrec_source_read_duration_seconds_total Time spent reading and parsing each source.
# TYPE flightrec_source_read_duration_seconds_total counter
flightrec_source_read_duration_seconds_total{source="stat"} 0.130524992
flightrec_source_read_duration_seconds_total{source="cgroup_cpu"} 0.033230313
flightrec_source_read_duration_seconds_total{source="meminfo"} 0.059508278
flightrec_source_read_duration_seconds_total{source="loadavg"} 0.005914223000000001
flightrec_source_read_duration_seconds_total{source="pressure"} 0.071134138
flightrec_source_read_duration_seconds_total{source="vmstat"} 0.035357155
flightrec_source_read_duration_seconds_total{source="diskstats"} 0.07161956300000001
flightrec_source_read_duration_seconds_total{source="netdev"} 0.048379033
# HELP flightrec_source_success Whether the newest read of each source succeeded.
# TYPE flightrec_source_success gauge
flightrec_source_success{source="stat"} 1
flightrec_source_success{source="cgroup_cpu"} 1
flightrec_source_success{source="meminfo"} 1
flightrec_source_success{source="loadavg"} 1
flightrec_source_success{source="pressure"} 1
flightrec_source_success{source="vmstat"} 1
flightrec_source_success{source="diskstats"} 1
flightrec_source_success{source="netdev"} 1
# HELP flightrec_recorder_frames_total Frames the recorder moved into the ring.
# TYPE flightrec_recorder_frames_total counter
flightrec_recorder_frames_total 3008
# HELP flightrec_ring_bytes Memory held by the ring's sealed blocks (bounded by buffer.max_bytes).
# TYPE flightrec_ring_bytes gauge
flightrec_ring_bytes 31462
# HELP flightrec_ring_encoded_bytes Serialized size of the ring's sealed blocks.
# TYPE flightrec_ring_encoded_bytes gauge
flightrec_ring_encoded_bytes 19924
# HELP flightrec_ring_frames Frames held in the ring's sealed blocks.
# TYPE flightrec_ring_frames gauge
flightrec_ring_frames 2757
# HELP flightrec_ring_span_seconds Time between the oldest and newest sealed frame.
# TYPE flightrec_ring_span_seconds gauge
flightrec_ring_span_seconds 11.023996002
# HELP flightrec_ring_encoded_bytes_per_value Compression: encoded bytes per stored value.
# TYPE flightrec_ring_encoded_bytes_per_value gauge
flightrec_ring_encoded_bytes_per_value 0.0118860126376878
# HELP flightrec_ring_dropped_blocks_total Blocks dropped from the ring to keep within buffer.duration and buffer.max_bytes.
# TYPE flightrec_ring_dropped_blocks_total counter
flightrec_ring_dropped_blocks_total 0
# HELP flightrec_incident_write_failures_total Incident files that could not be written, by cause.
# TYPE flightrec_incident_write_failures_total counter
flightrec_incident_write_failures_total{cause="no_space"} 0
flightrec_incident_write_failures_total{cause="read_only"} 0
flightrec_incident_write_failures_total{cause="permission"} 0
flightrec_incident_write_failures_total{cause="other"} 0
# HELP flightrec_incidents_quarantined_total Torn or corrupt incident files renamed to *.corrupt at start-up.
# TYPE flightrec_incidents_quarantined_total counter
flightrec_incidents_quarantined_total 0
# HELP flightrec_incidents_scan_pending Incident files found at start-up that the background scan has not verified yet.
# TYPE flightrec_incidents_scan_pending gauge
flightrec_incidents_scan_pending 0
# HELP flightrec_incidents_retention_deleted_total Incident files deleted to keep within incidents.max_count and incidents.max_bytes.
# TYPE flightrec_incidents_retention_deleted_total counter
flightrec_incidents_retention_deleted_total 0
# HELP flightrec_incident_last_time_seconds When the newest incident fired (Unix time); 0 before the first.
# TYPE flightrec_incident_last_time_seconds gauge
flightrec_incident_last_time_seconds 0
# HELP flightrec_incidents_dropped_total Incidents dropped because the incident writer was behind.
# TYPE flightrec_incidents_dropped_total counter
flightrec_incidents_dropped_total 0
# HELP flightrec_self_cpu_seconds_total CPU time flightrec's own threads spent, by thread group (scheduler accounting, exited threads included).
# TYPE flightrec_self_cpu_seconds_total counter
flightrec_self_cpu_seconds_total{thread="sampler"} 0.584784618
flightrec_self_cpu_seconds_total{thread="recorder"} 0.066769145
flightrec_self_cpu_seconds_total{thread="processes"} 0
flightrec_self_cpu_seconds_total{thread="http"} 0.005730180000000001
flightrec_self_cpu_seconds_total{thread="other"} 0.010870907
# HELP flightrec_scrape_duration_seconds How long the previous /metrics request took to collect and serialize.
# TYPE flightrec_scrape_duration_seconds gauge
flightrec_scrape_duration_seconds 0.003203422
# HELP flightrec_scrape_cpu_seconds_total CPU time spent answering earlier /metrics requests (rendering, compressing, sending).
# TYPE flightrec_scrape_cpu_seconds_total counter
flightrec_scrape_cpu_seconds_total 0.003033022
# HELP flightrec_scrapes_total Earlier /metrics responses, by the format negotiated.
# TYPE flightrec_scrapes_total counter
flightrec_scrapes_total{format="text-0.0.4"} 1
flightrec_scrapes_total{format="openmetrics-1.0.0"} 0
