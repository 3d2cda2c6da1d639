#!/usr/bin/env python3
"""The scripted load of the fidelity test (tests/e2e/fidelity.sh): about 8 s of CPU bursts, a
memory ramp, disk writes and loopback traffic, each logged with CLOCK_REALTIME nanoseconds (the
clock of the recordings' time column). Prints the log as JSON on stdout.

Usage: fidelity_load.py DIR...: the disk writes go to the first DIR on a block device (a tmpfs
work dir is in no diskstats line), else to the first DIR.
"""

import json
import os
import socket
import sys
import threading
import time

BURSTS_MS = (5, 10, 20, 50)
BURST_ROUNDS = 3
BURST_SPACING_S = 0.25
MEMORY_BYTES = 200 << 20
MEMORY_STEPS = 20
MEMORY_RAMP_S = 2.0
MEMORY_HOLD_S = 0.2
DISK_BYTES = 50 << 20
LOOPBACK_BYTES = 8 << 20
CHUNK = 1 << 20


def now():
    return time.clock_gettime_ns(time.CLOCK_REALTIME)


def busy(ms):
    """Spins for ms of wall time and ms of this thread's CPU time (a vCPU the hypervisor takes
    away mid-burst would otherwise end it with less CPU than asked); returns (start, end) in
    realtime ns and the CPU time spent."""
    start = now()
    length = ms * 1_000_000
    end_mono = time.monotonic_ns() + length
    cpu_start = time.thread_time_ns()
    while time.monotonic_ns() < end_mono or time.thread_time_ns() - cpu_start < length:
        pass
    return start, now(), time.thread_time_ns() - cpu_start


def cpu_bursts(log):
    # One CPU: a burst pinned there keeps that CPU busy (by itself or whatever preempts it) for its
    # whole length, so at least one scheduler tick of it is charged as busy time.
    cpu = max(os.sched_getaffinity(0))
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})
    try:
        for _ in range(BURST_ROUNDS):
            for ms in BURSTS_MS:
                start, end, cpu_ns = busy(ms)
                log.append({"kind": "cpu", "ms": ms, "cpu": cpu, "start": start, "end": end,
                            "cpu_ns": cpu_ns})
                time.sleep(BURST_SPACING_S)
    finally:
        os.sched_setaffinity(0, allowed)


def memory_ramp(log):
    # bytes objects of repeated non-zero bytes are written in full, so every page is touched.
    step = MEMORY_BYTES // MEMORY_STEPS
    held = []
    steps = []
    start = now()
    for _ in range(MEMORY_STEPS):
        step_start = now()
        held.append(b"\x01" * step)
        steps.append((step_start, now()))
        time.sleep(MEMORY_RAMP_S / MEMORY_STEPS)
    end = now()
    time.sleep(MEMORY_HOLD_S)
    freeing = now()
    held.clear()  # each 10 MiB object is its own mmap: this unmaps them all at once
    freed = now()
    log.append({"kind": "memory", "bytes": MEMORY_BYTES, "start": start, "end": end,
                "steps": steps, "freeing": freeing, "freed": freed})
    time.sleep(MEMORY_HOLD_S)


def on_block_device(path):
    return os.major(os.stat(path).st_dev) != 0


def disk_writes(log, dirs):
    target = next((d for d in dirs if on_block_device(d)), dirs[0])
    path = os.path.join(target, f"fidelity-disk-{os.getpid()}.bin")
    block = os.urandom(CHUNK)
    start = now()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        for _ in range(DISK_BYTES // CHUNK):
            os.write(fd, block)
        os.fsync(fd)
    finally:
        os.close(fd)
    end = now()
    st = os.stat(path)
    log.append({"kind": "disk", "bytes": DISK_BYTES, "start": start, "end": end, "dir": target,
                "dev_major": os.major(st.st_dev), "dev_minor": os.minor(st.st_dev)})
    os.unlink(path)


def loopback(log):
    server = socket.create_server(("127.0.0.1", 0))
    received = []

    def drain():
        conn, _ = server.accept()
        with conn:
            total = 0
            while chunk := conn.recv(CHUNK):
                total += len(chunk)
            received.append(total)

    reader = threading.Thread(target=drain)
    reader.start()
    block = b"\x02" * CHUNK
    start = now()
    with socket.create_connection(server.getsockname()) as client:
        for _ in range(LOOPBACK_BYTES // CHUNK):
            client.sendall(block)
    reader.join()
    end = now()
    server.close()
    log.append({"kind": "loopback", "bytes": LOOPBACK_BYTES, "received": received[0],
                "start": start, "end": end})


def main():
    dirs = sys.argv[1:]
    log = []
    began = now()
    time.sleep(0.3)
    cpu_bursts(log)
    memory_ramp(log)
    disk_writes(log, dirs)
    time.sleep(0.3)
    loopback(log)
    time.sleep(0.3)
    json.dump({"start": began, "end": now(), "events": log}, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
