#!/usr/bin/env python3
"""Checks an incident's CSV (GET /incidents/{id}?format=csv) for the e2e tests.

usage: incident_window.py FILE TICK cpu MIN_RATIO   -- the window is at the daemon's tick (TICK
                                                      seconds) and, over some 20 ms, the root
                                                      cgroup CPU usage shows all CPUs at least
                                                      MIN_RATIO busy
       incident_window.py FILE TICK memory MIN_BYTES -- the window is at the tick and
                                                      MemAvailable dropped by at least MIN_BYTES
Prints what it found; exits 1 when the check fails."""
import csv
import os
import statistics
import sys


def column(header, name):
    for i, h in enumerate(header):
        if h == name or h.startswith(name + "{"):
            return i
    sys.exit(f"no column {name} in {header[:8]}...")


def main() -> int:
    path, tick, kind, bound = sys.argv[1], float(sys.argv[2]), sys.argv[3], float(sys.argv[4])
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    times = [float(r[0]) for r in rows]
    step = statistics.median(b - a for a, b in zip(times, times[1:]))
    print(f"{len(rows)} rows, median step {step * 1000:.3f} ms, span {times[-1] - times[0]:.2f} s")
    if not 0.9 * tick <= step <= 1.1 * tick:
        print(f"not at the tick's resolution ({tick * 1000:g} ms)")
        return 1
    if kind == "cpu":
        i = column(header, "cgroup_cpu_usage_seconds_total")
        usage = [(t, float(r[i])) for t, r in zip(times, rows) if r[i] != ""]
        cpus = os.cpu_count()
        best = 0.0
        span = max(1, round(0.020 / tick))  # rows in 20 ms
        for k in range(span, len(usage)):
            (t0, u0), (t1, u1) = usage[k - span], usage[k]
            best = max(best, (u1 - u0) / (t1 - t0) / cpus)
        print(f"highest 20 ms all-CPU busy ratio in the window: {best:.2f}")
        return 0 if best >= bound else 1
    i = column(header, "memory_available_bytes")
    available = [float(r[i]) for r in rows if r[i] != ""]
    drop = max(available) - min(available)
    print(f"MemAvailable fell by {drop / 2**20:.0f} MiB inside the window")
    return 0 if drop >= bound else 1


if __name__ == "__main__":
    sys.exit(main())
