#!/usr/bin/env python3
"""Checks the fidelity test's two recordings of one scripted load (see fidelity.sh).

A read each source at its own rate (flightrec_source_rate_seconds in A's /metrics); B read every
source every 1 ms. Checks:
  agreement  every frame of A, for every series both hold, lies within what B saw over A's own read
             step: B's range over [t - rate - slack, t + slack], from B's last frame before to its
             first after (B misses ticks on a busy machine; for a counter this is
             B(t - rate - slack) <= v <= B(t + slack)); frames outside it only by a read that landed
             later than the slack are counted apart (explained()), the rest must be under 1 in 10^4
  bursts     each CPU burst of the load log raises the root cgroup's CPU usage by one scheduler tick
             in A and in B, and the first frames showing it differ by at most a tick + slack (or,
             where a daemon missed ticks right there, fall in overlapping spans between frames);
             a burst both show equally late was charged late by the kernel: one per run is allowed
  memory     MemAvailable's drop over the ramp agrees within what B saw it move over A's step
  loopback   lo's byte counters rise by what was sent, in both, agreeing the same way
  disk       the written bytes of the disk written to, likewise (skipped on tmpfs)
  window max /metrics' cpu_busy_ratio{cpu="total"} window max, and the same ratio from /dump over
             each 50 ms burst, are at least what one busy CPU of N implies
Exits 1 when a check fails, printing every figure it checked.
"""

import argparse
import bisect
import csv
import json
import os
import re
import sys

TICK = 0.004  # the scheduler tick of Debian's kernel (HZ=250): CPU times move in its steps
SLACK = 0.002  # how late a read may land after its frame's timestamp (or a 1 ms frame of B)
# A frame read later than SLACK after its timestamp (the sampler thread preempted between taking
# the time and reading) can fall outside the window; those are counted apart (see explained()).
# The rest must stay under one frame value in 10,000, and the late ones under 2 % (a busy 2-CPU
# machine shows ~0.2 %): a recording skewed by a whole read would pass as "late" otherwise.
MAX_VIOLATION_SHARE = 0.0001
MAX_LATE_SHARE = 0.02
# Gauges of how many threads are runnable or blocked, or I/Os in flight, at the instant of the
# read: they change at every context switch, count the reading thread itself (and whether the
# other daemon's is running), so two readers never see the same value. Reported, not checked.
RUN_QUEUE_SNAPSHOTS = ("procs_running", "procs_blocked", "threads_runnable", "disk_io_now{")
BURST_TRACE = "cgroup_cpu_usage_seconds_total"  # root cgroup usage: tick-accurate, microseconds
# The root cgroup's usage is charged by scheduler ticks: a burst whose CPU took no tick inside it
# (a shared 2-vCPU machine's vCPU taken away mid-burst) shows up late in both daemons at once.
# One such burst per run is the machine; more would be a fault of the test or the kernel setup.
MAX_CHARGED_LATE_BURSTS = 1
MEMORY = "memory_available_bytes"
ANON = "memory_anon_pages_bytes"
LOOPBACK_RX = 'network_receive_bytes_total{device="lo"}'
LOOPBACK_TX = 'network_transmit_bytes_total{device="lo"}'
BUSY_WINDOW = 0.020  # the span cpu_busy_ratio{cpu="total"} is derived over (docs/METRICS.md)
PAGE = 4096

# Which source writes which series, by name prefix (the describe() tables in
# sampler/src/sources/*.cpp). A series none of these names is checked at the slowest rate.
SOURCE_PREFIXES = (
    ("cgroup_cpu", ("cgroup_cpu_",)),
    ("stat", ("cpu_", "context_switches_total", "interrupts_total", "forks_total", "procs_")),
    ("meminfo", ("memory_",)),
    ("loadavg", ("load1", "load5", "load15", "threads")),
    ("pressure", ("pressure_",)),
    ("vmstat", ("page_faults_total", "major_page_faults_total", "oom_kills_total", "paged_",
                "swap_in_", "swap_out_")),
    ("diskstats", ("disk_",)),
    ("netdev", ("network_",)),
)

failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def parse_column(texts):
    """A CSV column's values (None where empty), each distinct text parsed once: most columns hold
    a few distinct values (counters that never move, empty slots), and parsing dominates."""
    if len(set(texts)) == 1:
        return [float(texts[0]) if texts[0] else None] * len(texts)
    parsed = {t: float(t) if t else None for t in set(texts)}
    return [parsed[t] for t in texts]


class Recording:
    """A /dump CSV: frame times (seconds) and each series' values (None where empty)."""

    def __init__(self, path):
        with open(path, newline="") as f:
            rows = csv.reader(f)
            header = next(rows)
            rows = list(rows)
        self.times = [float(row[0]) for row in rows]
        # Disk and interface slots no device has taken are empty columns: left out.
        kept = [i for i, name in enumerate(header) if i > 0 and "(unbound" not in name]
        self.unbound = len(header) - 1 - len(kept)
        self.series = {header[i]: parse_column([row[i] for row in rows]) for i in kept}

    def at(self, name, t):
        """The value of the last frame at or before t."""
        i = bisect.bisect_right(self.times, t) - 1
        return self.series[name][max(i, 0)]

    def before(self, name, t):
        """(frame time, value) of a frame read before t. A frame's read may land after its time
        stamp but ends before the next frame's: the frame before the last one at or before t."""
        i = max(bisect.bisect_right(self.times, t) - 2, 0)
        return self.times[i], self.series[name][i]

    def after(self, name, t):
        """(frame time, value) of the first frame at or after t (read no earlier than t, less the
        source's step for a source slower than the tick)."""
        i = min(bisect.bisect_left(self.times, t), len(self.times) - 1)
        return self.times[i], self.series[name][i]

    def first_reaching(self, name, since, threshold):
        """(time of the frame before, time) of the first frame at or after since whose value is
        >= threshold, or (None, None)."""
        values = self.series[name]
        for i in range(max(bisect.bisect_left(self.times, since), 1), len(self.times)):
            if values[i] is not None and values[i] >= threshold:
                return self.times[i - 1], self.times[i]
        return None, None

    def span(self, lo_t, hi_t):
        """Frame indexes from the last frame at or before lo_t to the first at or after hi_t, or
        None when the recording does not reach that far on either side."""
        lo = bisect.bisect_right(self.times, lo_t) - 1
        hi = bisect.bisect_left(self.times, hi_t)
        return None if lo < 0 or hi >= len(self.times) else (lo, hi)

    def moved(self, name, lo_t, hi_t):
        """How far the series moved (max - min) over span(lo_t, hi_t), clamped to the recording."""
        lo = max(bisect.bisect_right(self.times, lo_t) - 1, 0)
        hi = bisect.bisect_left(self.times, hi_t)
        values = [v for v in self.series[name][lo:hi + 1] if v is not None]
        return max(values) - min(values)


def metric_values(path, family):
    """{labels text: value} of one family in a Prometheus text exposition."""
    pattern = re.compile(r"^" + re.escape(family) + r"(\{[^}]*\})? (\S+)$")
    found = {}
    with open(path) as f:
        for line in f:
            m = pattern.match(line.strip())
            if m:
                found[m.group(1) or ""] = float(m.group(2))
    return found


def source_rates(metrics_path):
    rates = {}
    for labels, value in metric_values(metrics_path, "flightrec_source_rate_seconds").items():
        rates[re.search(r'source="([^"]+)"', labels).group(1)] = value
    return rates


def source_of(series):
    base = series.split("{", 1)[0]
    for source, prefixes in SOURCE_PREFIXES:
        if base.startswith(prefixes):
            return source
    return None


def within(values, v, tolerance=0.0):
    values = [x for x in values if x is not None]
    return not values or min(values) - tolerance <= v <= max(values) + tolerance


def largest_step(values):
    """The most a series moved between two consecutive frames of values."""
    values = [x for x in values if x is not None]
    return max((abs(y - x) for x, y in zip(values, values[1:])), default=0.0)


def explained(a, b, name, i, span):
    """Whether a frame outside B's range over [t - rate - slack, t + slack] is one whose read, or
    B's, landed later than the slack. The sampler stamps a frame before it reads and reads before
    it stamps the next, so A's read ended before A's next frame and each B value was read before
    B's next frame: the value then lies in B's range over that wider span (for a counter, B's
    frames around it bound it even where B missed ticks). A gauge (no _total) can move both ways
    between two reads of B (a short-lived process mapping and unmapping memory): it is allowed
    the most B saw it move between two of its frames there, and where B missed ticks (a gap over
    1 ms + slack) there is nothing to compare it with."""
    bv, v = b.series[name], a.series[name][i]
    next_a = a.times[min(i + 1, len(a.times) - 1)]
    lo = max(span[0] - 1, 0)
    hi = min(bisect.bisect_left(b.times, next_a), len(b.times) - 1)
    if name.split("{", 1)[0].endswith("_total"):
        return within(bv[lo:hi + 1], v)
    gap = max(b.times[j + 1] - b.times[j] for j in range(lo, hi))
    return within(bv[lo:hi + 1], v, largest_step(bv[lo:hi + 1])) or gap > 0.001 + SLACK


def compare_series(a, b, name, spans):
    """(frames checked, outside the window, those not explained by a late read, largest excess)."""
    av, bv = a.series[name], b.series[name]
    checked = outside = unexplained = 0
    excess = 0.0
    if len(set(av) | set(bv)) == 1:  # one value in both (or empty in both): nothing to find
        if av[0] is None:
            return 0, 0, 0, 0.0
        return sum(span is not None for span in spans), 0, 0, 0.0
    for i, span in enumerate(spans):
        if span is None or av[i] is None:
            continue
        window = [v for v in bv[span[0]:span[1] + 1] if v is not None]
        if not window:
            continue
        checked += 1
        low, high = min(window), max(window)
        if low <= av[i] <= high:
            continue
        outside += 1
        excess = max(excess, low - av[i], av[i] - high)
        if not explained(a, b, name, i, span):
            unexplained += 1
            if not name.startswith(RUN_QUEUE_SNAPSHOTS):
                print(f"  {name} at {a.times[i]:.6f}: A={av[i]:g}, B in [{low:g}, {high:g}]")
    return checked, outside, unexplained, excess


def agreement(a, b, rates):
    """Every frame of A inside B's range over [t - rate - slack, t + slack]."""
    slowest = max(rates.values())
    spans = {}  # per rate: each A frame's index span in B (shared by every series of that rate)
    total = late = bad = 0
    common = sorted(set(a.series) & set(b.series))
    for name in common:
        source = source_of(name)
        if source is None:
            print(f"note: {name} belongs to no known source: checked at the slowest rate")
        rate = rates.get(source, slowest)
        if rate not in spans:
            spans[rate] = [b.span(t - rate - SLACK, t + SLACK) for t in a.times]
        checked, outside, unexplained, excess = compare_series(a, b, name, spans[rate])
        if name.startswith(RUN_QUEUE_SNAPSHOTS):
            if outside:
                print(f"  {name} (run-queue snapshot, not checked): {outside} of {checked} frames "
                      f"outside B's range (by up to {excess:g})")
            continue
        total += checked
        late += outside - unexplained
        bad += unexplained
        if outside:
            print(f"  {name}: {outside} of {checked} frames outside B's range (by up to "
                  f"{excess:g}), {unexplained} of them not explained by a late read")
    share = bad / total if total else 1.0
    late_share = late / total if total else 1.0
    check(late_share <= MAX_LATE_SHARE,
          f"agreement: {total} frame values of A over {len(common)} series, {late} "
          f"({late_share:.3%}, at most {MAX_LATE_SHARE:.0%}) outside B's range over A's step by a "
          "read later than the slack")
    check(total > 0 and share <= MAX_VIOLATION_SHARE,
          f"agreement: {bad} of {total} frame values ({share:.4%}, at most "
          f"{MAX_VIOLATION_SHARE:.2%}) outside B's range over A's step and not a late read")


def seen_in_time(crossing, deadline, rate):
    """Whether a crossing (frame before, frame) is at the deadline, or in the first frame after a
    run of missed ticks that straddles it (the thread did not run: no frame could show it)."""
    before, seen = crossing
    if seen is None:
        return False
    return seen <= deadline or (before <= deadline and seen - before > rate + SLACK)


def same_time(crossing_a, crossing_b):
    """Whether A and B show the crossing within a tick + slack of each other, or, where either
    missed ticks there, in overlapping spans between their frames."""
    (before_a, seen_a), (before_b, seen_b) = crossing_a, crossing_b
    if abs(seen_a - seen_b) <= TICK + SLACK:
        return True
    gaps = seen_a - before_a > TICK + SLACK or seen_b - before_b > 0.001 + SLACK
    return gaps and before_a <= seen_b + SLACK and before_b <= seen_a + SLACK


def bursts(a, b, rates, events):
    if BURST_TRACE not in a.series or BURST_TRACE not in b.series:
        print(f"SKIP bursts: no {BURST_TRACE} (no cgroup v2 root): /proc/stat's CPU times move in "
              "10 ms USER_HZ steps, too coarse for a 5 ms burst")
        return
    rate_a = rates.get("cgroup_cpu", TICK)
    worst = 0.0
    charged_late = []
    for e in (e for e in events if e["kind"] == "cpu"):
        start, end = e["start"] / 1e9, e["end"] / 1e9
        # One tick of CPU over B's value just before the burst: both must reach it.
        threshold = b.before(BURST_TRACE, start)[1] + TICK
        crossing_a = a.first_reaching(BURST_TRACE, start, threshold)
        crossing_b = b.first_reaching(BURST_TRACE, start, threshold)
        what = f"{e['ms']} ms burst at {start:.3f} ({e['cpu_ns'] / 1e6:.1f} ms of CPU)"
        in_time_a = seen_in_time(crossing_a, end + TICK + rate_a + SLACK, rate_a)
        in_time_b = seen_in_time(crossing_b, end + TICK + SLACK, 0.001)
        if not in_time_a and not in_time_b and crossing_a[1] is not None \
                and crossing_b[1] is not None and same_time(crossing_a, crossing_b):
            # Both daemons show the same late step: the kernel charged the burst late (its CPU
            # took no tick inside it, e.g. the vCPU was away), which no reader can see sooner.
            charged_late.append(what)
            print(f"late: {what}: A and B both show it {fmt_rel(crossing_b[1], end)} after its "
                  "end, together: charged late by the kernel")
        else:
            check(in_time_a, f"{what}: A shows +{TICK * 1e3:g} ms of CPU "
                  f"{fmt_rel(crossing_a[1], end)} after it")
            check(in_time_b, f"{what}: B shows it {fmt_rel(crossing_b[1], end)} after its end")
        if crossing_a[1] is not None and crossing_b[1] is not None:
            apart = abs(crossing_a[1] - crossing_b[1])
            worst = max(worst, apart)
            check(same_time(crossing_a, crossing_b),
                  f"{what}: A and B see it {apart * 1e3:.1f} ms apart (at most "
                  f"{(TICK + SLACK) * 1e3:g}, or within missed ticks)")
    print(f"figure: bursts seen at most {worst * 1e3:.1f} ms apart by A and B")
    check(len(charged_late) <= MAX_CHARGED_LATE_BURSTS,
          f"bursts charged late by the kernel (both daemons late together): {len(charged_late)} "
          f"(at most {MAX_CHARGED_LATE_BURSTS})")


def fmt_rel(t, ref):
    return "never" if t is None else f"{(t - ref) * 1e3:+.1f} ms"


def change(a, b, rates, name, source, times, want_min, what, sign=1):
    """The change of name from a read before t0 to one after t1 (times) in A and B (times sign:
    -1 for a drop): each at least want_min (None: any), and the two agreeing within what B saw
    the series move over A's step around the frames used at each end (a daemon that missed ticks
    there uses a frame further out)."""
    t0, t1 = times
    if name not in a.series or name not in b.series:
        check(False, f"{what}: {name} is not in both recordings")
        return
    rate = rates.get(source, max(rates.values()))
    ends = [(a.before(name, t0), b.before(name, t0)), (a.after(name, t1), b.after(name, t1))]
    (_, a0), (_, b0) = ends[0]
    (_, a1), (_, b1) = ends[1]
    change_a, change_b = sign * (a1 - a0), sign * (b1 - b0)
    tolerance = PAGE + sum(b.moved(name, min(ta, tb) - rate - SLACK, max(ta, tb) + SLACK)
                           for (ta, _), (tb, _) in ends)
    if want_min is None:
        print(f"figure: {what}: A {change_a:.0f}, B {change_b:.0f}")
    else:
        check(change_a >= want_min and change_b >= want_min,
              f"{what}: A {change_a:.0f}, B {change_b:.0f} (each at least {want_min:.0f})")
    check(abs(change_a - change_b) <= tolerance,
          f"{what}: A and B differ by {abs(change_a - change_b):.0f} "
          f"(at most {tolerance:.0f}, what B saw move over one {rate * 1e3:g} ms step at each end)")


def memory(a, b, rates, events):
    rate = rates.get("meminfo", TICK)
    for e in (e for e in events if e["kind"] == "memory"):
        # The ramp takes seconds, over which other processes on a busy machine allocate and free
        # as much (and this VM hands freed pages back to MemFree in batches, seconds later): its
        # drop must agree between A and B, whatever it is.
        change(a, b, rates, MEMORY, "meminfo", (e["start"] / 1e9, e["end"] / 1e9 + rate + SLACK),
               None, f"MemAvailable drop over the {e['bytes'] >> 20} MiB ramp", sign=-1)
        # That the ramp shows at all: each allocation touches its 10 MiB within milliseconds, so
        # AnonPages rises by it from before the step to the first meminfo read after; the median
        # over the steps shrugs off a step where another process happened to exit.
        step = e["bytes"] / len(e["steps"])
        for label, rec in (("A", a), ("B", b)):
            rises = sorted(rec.after(ANON, t / 1e9 + rate + SLACK)[1] - rec.before(ANON, s / 1e9)[1]
                           for s, t in e["steps"])
            median = rises[len(rises) // 2]
            check(median >= step / 2,
                  f"{label}: AnonPages rises by a median {median:.0f} over the ramp's "
                  f"{len(rises)} allocations of {step:.0f} (at least half of one)")


def loopback(a, b, rates, events):
    for e in (e for e in events if e["kind"] == "loopback"):
        rate = rates.get("netdev", TICK)
        times = (e["start"] / 1e9, e["end"] / 1e9 + rate + SLACK)
        for name in (LOOPBACK_RX, LOOPBACK_TX):
            change(a, b, rates, name, "netdev", times, e["bytes"],
                   f"{name} over {e['bytes']} bytes sent on loopback")


def disk_name(major, minor):
    """The whole disk holding the device major:minor, or None (tmpfs, overlay: no block device)."""
    if major == 0:
        return None
    sys_path = os.path.realpath(f"/sys/dev/block/{major}:{minor}")
    if not os.path.exists(sys_path):
        return None
    if os.path.exists(os.path.join(sys_path, "partition")):
        sys_path = os.path.dirname(sys_path)
    return os.path.basename(sys_path)


def disk(a, b, rates, events):
    for e in (e for e in events if e["kind"] == "disk"):
        device = disk_name(e["dev_major"], e["dev_minor"])
        name = f'disk_written_bytes_total{{device="{device}"}}'
        if device is None:
            print(f"SKIP disk: {e['dir']} is on no block device "
                  f"({e['dev_major']}:{e['dev_minor']}: tmpfs or overlay), so writes there are in "
                  "no diskstats line")
            continue
        if name not in a.series or name not in b.series:
            print(f"SKIP disk: {device}, under {e['dir']}, is not in both recordings' diskstats "
                  "(filtered, or a device-mapper volume)")
            continue
        rate = rates.get("diskstats", TICK)
        times = (e["start"] / 1e9, e["end"] / 1e9 + rate + SLACK)
        change(a, b, rates, name, "diskstats", times, e["bytes"],
               f"{device} written bytes over {e['bytes'] >> 20} MiB written and fsynced")


def busy_ratio_max(rec, start, end, cpus):
    """The largest share of all CPUs busy over BUSY_WINDOW ending inside [start, end], from the
    root cgroup usage in the dump (what /metrics derives per tick)."""
    best = 0.0
    for i in range(bisect.bisect_left(rec.times, start), bisect.bisect_right(rec.times, end)):
        t = rec.times[i]
        before = rec.at(BURST_TRACE, t - BUSY_WINDOW)
        now = rec.series[BURST_TRACE][i]
        if before is not None and now is not None:
            best = max(best, (now - before) / BUSY_WINDOW / cpus)
    return best


def window_max(a, b, events, metrics):
    cpus = len({m.group(1) for name in a.series
                for m in [re.search(r'^cpu_seconds_total\{cpu="(\d+)"', name)] if m})
    # A 50 ms burst keeps one CPU busy over a whole 20 ms derivation window: at least 4 of its 5
    # ticks are charged busy, so all CPUs are at least 0.8 / N busy; 0.7 / N allows one tick lost
    # to steal time on a shared VM.
    bound = 0.7 / cpus
    for label, path in metrics:
        values = metric_values(path, "flightrec_cpu_busy_ratio")
        got = values.get('{cpu="total",window="30s",agg="max"}')
        check(got is not None and got >= bound,
              f"{label}: /metrics cpu_busy_ratio{{cpu=\"total\",agg=\"max\"}} over 30 s = {got} "
              f">= {bound:.3f} (a 50 ms burst on one of {cpus} CPUs)")
    if BURST_TRACE not in a.series:
        return
    for e in (e for e in events if e["kind"] == "cpu" and e["ms"] >= 50):
        start, end = e["start"] / 1e9, e["end"] / 1e9
        for label, rec in (("A", a), ("B", b)):
            got = busy_ratio_max(rec, start + BUSY_WINDOW, end + TICK + SLACK, cpus)
            check(got >= bound, f"{label}: /dump busy ratio over the 50 ms burst at "
                                f"{start:.3f} peaks at {got:.3f} >= {bound:.3f}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for flag in ("--load", "--a", "--b", "--metrics-a", "--metrics-b"):
        p.add_argument(flag, required=True)
    args = p.parse_args()
    with open(args.load) as f:
        events = json.load(f)["events"]
    a, b = Recording(args.a), Recording(args.b)
    rates = source_rates(args.metrics_a)
    rates_b = source_rates(args.metrics_b)
    print(f"A: {len(a.times)} frames, rates {rates}; B: {len(b.times)} frames, rates {rates_b}; "
          f"{a.unbound} unbound disk and interface slots left out")
    check(bool(rates_b) and all(r <= 0.001 for r in rates_b.values()),
          "B reads every source every 1 ms")
    agreement(a, b, rates)
    bursts(a, b, rates, events)
    memory(a, b, rates, events)
    loopback(a, b, rates, events)
    disk(a, b, rates, events)
    window_max(a, b, events, (("A", args.metrics_a), ("B", args.metrics_b)))
    if failures:
        print(f"{len(failures)} fidelity check(s) failed", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
