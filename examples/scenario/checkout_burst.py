#!/usr/bin/env python3
"""The throttled-pod scenario's service: a checkout that answers in bursts.

Every --every seconds all --workers processes spin together for a burst of wall-clock time: first
--quiet-bursts short bursts (--quiet-burst seconds), then --busy-bursts long ones (--busy-burst
seconds), then it exits. Under a CFS quota smaller than the workers' demand, each burst is a run
of throttled periods while the average stays low. The workers start their bursts on a shared
clock, so the bursts line up whatever the scheduler does.
"""
import argparse
import ctypes
import os
import time

PR_SET_NAME = 15


def spin_until(deadline):
    while time.monotonic() < deadline:
        pass


def work(start, schedule, every):
    for index, burst in enumerate(schedule):
        begin = start + index * every
        time.sleep(max(0.0, begin - time.monotonic()))
        spin_until(begin + burst)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--every", type=float, default=1.0)
    parser.add_argument("--quiet-bursts", type=int, default=6)
    parser.add_argument("--quiet-burst", type=float, default=0.05)
    parser.add_argument("--busy-bursts", type=int, default=4)
    parser.add_argument("--busy-burst", type=float, default=0.6)
    args = parser.parse_args()
    schedule = [args.quiet_burst] * args.quiet_bursts + [args.busy_burst] * args.busy_bursts
    # A distinct comm makes the service and its workers easy to tell apart in replay.
    libc = ctypes.CDLL(None)
    libc.prctl(PR_SET_NAME, b"checkout", 0, 0, 0)
    start = time.monotonic() + 0.5
    children = []
    for _ in range(args.workers):
        pid = os.fork()
        if pid == 0:
            libc.prctl(PR_SET_NAME, b"checkout-worker", 0, 0, 0)
            work(start, schedule, args.every)
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)


if __name__ == "__main__":
    main()
