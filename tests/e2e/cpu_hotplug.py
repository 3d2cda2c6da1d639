#!/usr/bin/env python3
"""Checks one daemon's /dump (CSV) across a CPU hotplug (see cpu_hotplug.sh).

  absent     every frame well inside the offline window has no value for any of cpu1's series,
             and the frames before it and after it (past a margin) have them all
  monotonic  each of cpu1's busy modes never goes backwards over the whole recording; idle and
             iowait, which the kernel moves between each other while a CPU idles with tasks
             waiting for I/O, never go backwards in their sum (by more than the one USER_HZ step
             their two roundings down can lose)
  aggregate  (ebpf only) the same for the aggregate cpu line, which, while cpu1 is offline, also
             advances exactly as the runs of the CPUs still online do (an offline CPU adds no
             time) and, roughly, at the wall clock's pace for that many CPUs
Exits 1 when a check fails, printing every figure it checked.
"""

import argparse
import csv
import re
import sys

USER_HZ_STEP = 0.01  # /proc/stat's unit, in which every CPU time is recorded
# The procfs backend holds each file's values until its next read (sources.stat.rate, 8 ms), and
# the hotplug itself takes a few ms on each side of the echo: frames this close to either edge of
# the window may show either state.
EDGE = 0.1
BUSY_MODES = ("user", "nice", "system", "irq", "softirq", "steal")
IDLE_MODES = ("idle", "iowait")
COLUMN = re.compile(r'^(cpu_seconds_total|cpu_guest_seconds_total|cpu_aggregate_seconds_total)'
                    r'\{(?:cpu="(\d+)",)?mode="(\w+)"\}$')

failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def read_dump(path):
    """(times, columns): frame times, and for each (family, cpu, mode) its values (None absent)."""
    with open(path, newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        wanted = {}
        for index, name in enumerate(header):
            match = COLUMN.match(name)
            if match:
                wanted[index] = (match.group(1), match.group(2), match.group(3))
        times = []
        columns = {key: [] for key in wanted.values()}
        for row in rows:
            times.append(float(row[0]))
            for index, key in wanted.items():
                columns[key].append(float(row[index]) if row[index] != "" else None)
    return times, columns


def series_of(columns, family, cpu):
    """The mode -> values of one CPU's run (cpu None: the aggregate line)."""
    return {mode: values for (f, c, mode), values in columns.items() if f == family and c == cpu}


def worst_drop(values):
    """The largest decrease between consecutive present values, and where (0 when none)."""
    worst, at, previous = 0.0, None, None
    for index, value in enumerate(values):
        if value is None:
            continue
        if previous is not None and previous - value > worst:
            worst, at = previous - value, index
        previous = value
    return worst, at


def idle_sum(run):
    return [None if a is None or b is None else a + b
            for a, b in zip(run["idle"], run["iowait"])]


def check_monotonic(run, times, what, idle_slack):
    for mode in BUSY_MODES:
        drop, at = worst_drop(run[mode])
        where = f" (at {times[at]:.3f})" if at is not None else ""
        check(drop == 0, f"{what} {mode} never goes backwards: worst drop {drop:.2f} s{where}")
    drop, at = worst_drop(idle_sum(run))
    where = f" (at {times[at]:.3f})" if at is not None else ""
    check(drop <= idle_slack + 1e-9,
          f"{what} idle + iowait never goes backwards by more than {idle_slack} s: "
          f"worst drop {drop:.2f} s{where}")


def check_presence(times, columns, offline, online):
    cpu1 = [values for (f, c, _), values in columns.items() if c == "1"]
    check(len(cpu1) == 10, f"the recording has cpu1's 10 series ({len(cpu1)})")
    inside = [i for i, t in enumerate(times) if offline[1] + EDGE <= t <= online[0] - EDGE]
    before = [i for i, t in enumerate(times) if t < offline[0]]
    after = [i for i, t in enumerate(times) if t > online[1] + EDGE]
    check(len(inside) > 100 and len(before) > 100 and len(after) > 100,
          f"frames before, during and after the offline window: {len(before)}, {len(inside)}, "
          f"{len(after)}")
    present_inside = sum(1 for i in inside if any(v[i] is not None for v in cpu1))
    check(present_inside == 0,
          f"no frame while cpu1 is offline has a cpu1 value ({present_inside} of {len(inside)} do)")
    absent_outside = sum(1 for i in before + after if any(v[i] is None for v in cpu1))
    check(absent_outside == 0,
          f"every frame before and after has all of cpu1's values ({absent_outside} lack some)")


def check_aggregate(times, columns, offline, online):
    total = series_of(columns, "cpu_aggregate_seconds_total", None)
    # Two sums each rounded down to USER_HZ.
    check_monotonic(total, times, "the aggregate", USER_HZ_STEP)
    cpus = sorted({c for (f, c, _) in columns if f == "cpu_seconds_total"} - {"1"})
    inside = [i for i, t in enumerate(times) if offline[1] + EDGE <= t <= online[0] - EDGE]
    if not inside:
        return
    first, last = inside[0], inside[-1]
    modes = BUSY_MODES + IDLE_MODES

    def advance(run):
        return sum(run[mode][last] - run[mode][first] for mode in modes)

    advanced = advance(total)
    online_advanced = sum(advance(series_of(columns, "cpu_seconds_total", c)) for c in cpus)
    # The aggregate is the sum over every CPU in nanoseconds, rounded down once per mode; each
    # CPU's run is rounded down per mode too: a USER_HZ step per mode and run at either end.
    rounding = 2 * USER_HZ_STEP * len(modes) * (len(cpus) + 1)
    check(abs(advanced - online_advanced) <= rounding + 1e-9,
          f"while cpu1 is offline the aggregate advances as the CPUs still online do: "
          f"{advanced:.2f} s and {online_advanced:.2f} s (within {rounding:.2f} s)")
    # Against the wall clock only roughly: the kernel charges the interrupts of an idle CPU to no
    # mode, and the tick's timer wakes it every few ms. With cpu1 offline and an ebpf daemon
    # running, /proc/stat's own cpu0 line advanced 2.87-2.91 s in 3 s (2.99 s without it); in CI
    # the modes added up to 2.62-2.71 s in 2.83 s. Counting cpu1 would double the pace.
    elapsed = times[last] - times[first]
    pace = advanced / (elapsed * len(cpus)) if elapsed > 0 else 0.0
    check(0.8 <= pace <= 1.05,
          f"while cpu1 is offline the aggregate advances {advanced:.2f} s in {elapsed:.2f} s, "
          f"{pace:.2f} of the pace of {len(cpus)} CPU(s)")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backend", required=True, choices=("ebpf", "procfs"))
    parser.add_argument("--offline", nargs=2, type=float, required=True,
                        help="Unix times before and after cpu1 was taken offline")
    parser.add_argument("--online", nargs=2, type=float, required=True,
                        help="Unix times before and after cpu1 was brought back")
    parser.add_argument("dump")
    args = parser.parse_args()
    times, columns = read_dump(args.dump)
    print(f"{args.backend}: {len(times)} frames, offline {args.online[0] - args.offline[1]:.2f} s")
    check_presence(times, columns, args.offline, args.online)
    cpu1 = series_of(columns, "cpu_seconds_total", "1")
    check_monotonic(cpu1, times, "cpu1", USER_HZ_STEP)
    for mode, values in series_of(columns, "cpu_guest_seconds_total", "1").items():
        drop, _ = worst_drop(values)
        check(drop == 0, f"cpu1 guest {mode} never goes backwards: worst drop {drop:.2f} s")
    if args.backend == "ebpf":
        check_aggregate(times, columns, args.offline, args.online)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
