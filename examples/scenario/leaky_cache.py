#!/usr/bin/env python3
"""The scenario's culprit: fetches chunks from chunk_server.py and caches them without evicting.

Every step it fetches --step-mib chunks of 1 MiB and keeps them all, so its RSS grows by
--step-mib MiB per --interval seconds for --steps steps; then it holds the memory for --hold
seconds and exits. The growth is bounded: at most steps x step-mib MiB.
"""
import argparse
import ctypes
import socket
import time

CHUNK = 1 << 20
PR_SET_NAME = 15


def fetch_chunk(conn):
    # recv_into writes every byte of the buffer, so the pages are really resident, not just mapped.
    chunk = bytearray(CHUNK)
    view = memoryview(chunk)
    conn.sendall(b"n")
    received = 0
    while received < CHUNK:
        n = conn.recv_into(view[received:])
        if n == 0:
            raise ConnectionError("chunk server closed the connection")
        received += n
    return chunk


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--step-mib", type=int, default=32)
    parser.add_argument("--steps", type=int, default=15)
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--hold", type=float, default=3.0)
    args = parser.parse_args()

    ctypes.CDLL(None).prctl(PR_SET_NAME, b"leaky-cache", 0, 0, 0)
    cache = {}
    with socket.create_connection(("127.0.0.1", args.port)) as conn:
        for _ in range(args.steps):
            started = time.monotonic()
            for _ in range(args.step_mib):
                cache[len(cache)] = fetch_chunk(conn)
            time.sleep(max(0.0, args.interval - (time.monotonic() - started)))
    time.sleep(args.hold)
    print(f"cached {len(cache)} MiB", flush=True)


if __name__ == "__main__":
    main()
