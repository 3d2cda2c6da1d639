#!/usr/bin/env python3
"""Scrape latency while idle, slow-header and slow-reading clients hold connections.

For each target (NAME=HOST:PORT, measured one after another in this run), opens
  --idle         connections that send nothing,
  --slow-header  connections that send a request header one byte a second and never finish it,
  --slow-read    connections that ask for /metrics with a 4 KiB receive buffer and never read,
keeps that many held (one the server closes is reopened), and meanwhile a scraper does
GET /metrics every --interval on a fresh connection and records the time to the whole answer.
A scrape that takes over --scrape-timeout, fails, or is not a 200 counts as failed.
With --tls, the slow-header and slow-reading clients and the scraper speak TLS (idle clients send
nothing either way): a slow-header client completes its handshake before its first slow byte.

Prints one line per target: p50/p99/max latency in ms, failed scrapes, 503 answers, and how long
the server kept an idle connection open (median; "held" when it never closed one). With
--max-p99-ms/--max-failed, exits 1 when the first target breaks them (the e2e test's check).
"""

import argparse
import socket
import ssl
import statistics
import sys
import threading
import time

SLOW_HEADER_START = b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: "
SLOW_READ_REQUEST = b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"


def tls_context():
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the servers' certificates are not what is measured
    return context


def connect(address, rcvbuf=0, tls=None):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(5)
    sock.connect(address)
    if tls:
        sock = tls.wrap_socket(sock)
    sock.setblocking(False)
    return sock


def closed_by_peer(sock):
    try:
        return sock.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


class Attackers:
    """Holds the idle, slow-header and slow-reading connections until stop()."""

    def __init__(self, address, idle, slow_header, slow_read, tls):
        self.address = address
        self.tls = tls
        self.counts = {"idle": idle, "slow_header": slow_header, "slow_read": slow_read}
        self.held = {kind: [] for kind in self.counts}  # [socket, opened_at]
        self.idle_lifetimes = []  # seconds the server kept an idle connection open
        self.open_errors = 0
        self.stopping = threading.Event()
        self.lock = threading.Lock()  # tick() against held_counts()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def open(self, kind):
        try:
            tls = self.tls if kind != "idle" else None
            sock = connect(self.address, 4096 if kind == "slow_read" else 0, tls)
            if kind == "slow_header":
                sock.send(SLOW_HEADER_START)
            elif kind == "slow_read":
                sock.send(SLOW_READ_REQUEST)
        except OSError:
            self.open_errors += 1
            return
        self.held[kind].append([sock, time.monotonic()])

    def held_counts(self):
        with self.lock:
            return {kind: len(conns) for kind, conns in self.held.items()}

    def tick(self):
        with self.lock:
            self.tick_locked()

    def tick_locked(self):
        now = time.monotonic()
        for kind, conns in self.held.items():
            for entry in list(conns):
                sock, opened = entry
                # A slow reader never reads, so only its age retires it: one every 10 s each.
                # A TLS socket cannot peek: its next slow byte fails once the server closed it.
                if kind == "slow_read":
                    retire = now - opened > 10
                elif kind == "slow_header" and self.tls:
                    retire = False
                else:
                    retire = closed_by_peer(sock)
                if not retire and kind == "slow_header":
                    try:
                        sock.send(b"a")
                    except OSError:
                        retire = True
                if retire:
                    if kind == "idle":
                        self.idle_lifetimes.append(now - opened)
                    sock.close()
                    conns.remove(entry)
            while len(conns) < self.counts[kind] and not self.stopping.is_set():
                self.open(kind)

    def start(self):
        self.tick()
        self.thread.start()

    def run(self):
        while not self.stopping.wait(1.0):
            self.tick()

    def stop(self):
        self.stopping.set()
        self.thread.join()
        for conns in self.held.values():
            for sock, _ in conns:
                sock.close()


def scrape(address, timeout, tls):
    """(seconds, status) of one GET /metrics on a new connection; status 0 on failure."""
    start = time.monotonic()
    try:
        raw = socket.create_connection(address, timeout=timeout)
        with tls.wrap_socket(raw) if tls else raw as sock:
            sock.settimeout(max(0.001, timeout - (time.monotonic() - start)))
            sock.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = bytearray()
            while chunk := sock.recv(65536):
                answer += chunk
                if time.monotonic() - start > timeout:
                    return timeout, 0
    except OSError:
        return time.monotonic() - start, 0
    status_line = bytes(answer[: answer.find(b"\r\n")]).split()
    status = int(status_line[1]) if len(status_line) > 1 and status_line[1].isdigit() else 0
    return time.monotonic() - start, status


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def measure(name, address, args):
    tls = tls_context() if args.tls else None
    attackers = Attackers(address, args.idle, args.slow_header, args.slow_read, tls)
    attackers.start()
    time.sleep(args.warmup)
    latencies, failed, unavailable = [], 0, 0
    end = time.monotonic() + args.duration
    while time.monotonic() < end:
        started = time.monotonic()
        seconds, status = scrape(address, args.scrape_timeout, tls)
        if status == 200:
            latencies.append(seconds)
        elif status == 503:
            unavailable += 1
        else:
            failed += 1
        time.sleep(max(0.0, args.interval - (time.monotonic() - started)))
    held = attackers.held_counts()
    attackers.stop()
    ms = [s * 1000 for s in latencies] or [float("inf")]
    idle_closed = (
        f"{statistics.median(attackers.idle_lifetimes):.1f}s"
        if attackers.idle_lifetimes
        else "held"
    )
    print(
        f"{name}: scrapes={len(latencies) + failed + unavailable} p50={percentile(ms, 0.5):.1f}ms "
        f"p99={percentile(ms, 0.99):.1f}ms max={max(ms):.1f}ms failed={failed} "
        f"503={unavailable} idle_closed_after={idle_closed} "
        f"held={held['idle']}/{held['slow_header']}/{held['slow_read']} "
        f"open_errors={attackers.open_errors}",
        flush=True,
    )
    return percentile(ms, 0.99), failed + unavailable


def parse_target(text):
    name, _, hostport = text.partition("=")
    host, _, port = hostport.rpartition(":")
    if not name or not host or not port.isdigit():
        raise argparse.ArgumentTypeError(f"target {text!r} is not NAME=HOST:PORT")
    return name, (host, int(port))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="+", type=parse_target, help="NAME=HOST:PORT")
    parser.add_argument("--idle", type=int, default=300)
    parser.add_argument("--slow-header", type=int, default=100)
    parser.add_argument("--slow-read", type=int, default=50)
    parser.add_argument("--duration", type=float, default=20, help="seconds of scraping")
    parser.add_argument("--warmup", type=float, default=2, help="seconds before scraping")
    parser.add_argument("--interval", type=float, default=0.1)
    parser.add_argument("--scrape-timeout", type=float, default=5)
    parser.add_argument("--tls", action="store_true", help="the targets serve HTTPS")
    parser.add_argument("--max-p99-ms", type=float, help="exit 1 above it (first target)")
    parser.add_argument("--max-failed", type=int, help="exit 1 above it (first target)")
    args = parser.parse_args()
    results = [measure(name, address, args) for name, address in args.targets]
    p99, failed = results[0]
    if args.max_p99_ms is not None and p99 > args.max_p99_ms:
        print(f"FAIL: p99 {p99:.1f}ms over {args.max_p99_ms}ms", file=sys.stderr)
        return 1
    if args.max_failed is not None and failed > args.max_failed:
        print(f"FAIL: {failed} failed or refused scrapes, at most {args.max_failed}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
