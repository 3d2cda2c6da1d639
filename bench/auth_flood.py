#!/usr/bin/env python3
"""Scrapes with the right password while clients flood the same target with wrong ones.

ATTACKERS threads loop GET /metrics with a wrong password for USER, each on a new connection,
from 127.0.0.2 (another host, as far as flightrec can tell; the scraper is 127.0.0.1); after 2 s
a scraper does SCRAPES GET /metrics with USER:PASSWORD (curl, 200 ms apart) and prints
one line: the status codes seen and the median and slowest scrape in ms.
usage: auth_flood.py HOST:PORT USER PASSWORD [ATTACKERS] [SCRAPES]
"""

import base64
import socket
import statistics
import subprocess
import sys
import threading
import time


def main():
    host, _, port = sys.argv[1].rpartition(":")
    user, password = sys.argv[2], sys.argv[3]
    attackers = int(sys.argv[4]) if len(sys.argv) > 4 else 50
    scrapes = int(sys.argv[5]) if len(sys.argv) > 5 else 20
    wrong = base64.b64encode(f"{user}:wrong-{password}".encode()).decode()
    request = (f"GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Basic {wrong}\r\n"
               "Connection: close\r\n\r\n").encode()
    stopping = threading.Event()

    def attack():
        while not stopping.is_set():
            try:
                with socket.create_connection((host, int(port)), timeout=5,
                                              source_address=("127.0.0.2", 0)) as sock:
                    sock.sendall(request)
                    while sock.recv(65536):
                        pass
            except OSError:
                pass

    threads = [threading.Thread(target=attack, daemon=True) for _ in range(attackers)]
    for thread in threads:
        thread.start()
    time.sleep(2)
    codes, seconds = [], []
    for _ in range(scrapes):
        out = subprocess.run(["curl", "-s", "-o", "/dev/null", "--max-time", "10", "-w",
                              "%{http_code} %{time_total}", "-u", f"{user}:{password}",
                              f"http://{host}:{port}/metrics"], capture_output=True, text=True)
        code, took = out.stdout.split()
        codes.append(code)
        seconds.append(float(took))
        time.sleep(0.2)
    stopping.set()
    ms = sorted(s * 1000 for s in seconds)
    print(f"attackers={attackers} scrapes={scrapes} ok={codes.count('200')} "
          f"codes={','.join(sorted(set(codes)))} p50={statistics.median(ms):.1f}ms "
          f"max={ms[-1]:.1f}ms", flush=True)


if __name__ == "__main__":
    main()
