#!/usr/bin/env python3
"""Holds connections to HOST:PORT for SECONDS: IDLE that send nothing and PARTIAL that send the
first bytes of a TLS ClientHello and stop. Prints "held N" once all are open, then sleeps.
usage: hold_connections.py HOST:PORT IDLE PARTIAL SECONDS"""

import socket
import sys
import time

# A TLS handshake record header announcing 512 bytes, and 16 of them.
PARTIAL_CLIENT_HELLO = b"\x16\x03\x01\x02\x00" + b"\x01" + b"\x00" * 15


def main():
    host, _, port = sys.argv[1].rpartition(":")
    idle, partial, seconds = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    held = []
    for i in range(idle + partial):
        sock = socket.create_connection((host, int(port)), timeout=5)
        if i >= idle:
            sock.sendall(PARTIAL_CLIENT_HELLO)
        held.append(sock)
    print(f"held {len(held)}", flush=True)
    time.sleep(seconds)


if __name__ == "__main__":
    main()
