#!/usr/bin/env python3
"""Holds slow readers: for each PATH COUNT pair, COUNT connections to HOST:PORT that ask for PATH
with a 4 KiB receive buffer and never read the answer, with basic auth when --user is given.
Prints "held N" once all have sent their request, then sleeps SECONDS.
usage: slow_readers.py [--user=USER:PASSWORD] HOST:PORT SECONDS PATH COUNT [PATH COUNT ...]"""

import base64
import socket
import sys
import time


def main():
    args = sys.argv[1:]
    header = ""
    if args[0].startswith("--user="):
        credentials = base64.b64encode(args.pop(0)[len("--user="):].encode()).decode()
        header = f"Authorization: Basic {credentials}\r\n"
    host, _, port = args[0].rpartition(":")
    seconds = float(args[1])
    pairs = args[2:]
    held = []
    for path, count in zip(pairs[::2], pairs[1::2]):
        for _ in range(int(count)):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect((host, int(port)))
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n{header}\r\n".encode())
            held.append(sock)
    print(f"held {len(held)}", flush=True)
    time.sleep(seconds)


if __name__ == "__main__":
    main()
