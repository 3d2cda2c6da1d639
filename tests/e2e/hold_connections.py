#!/usr/bin/env python3
"""Holds connections to HOST:PORT for SECONDS: IDLE that send nothing, PARTIAL that send the
first bytes of a TLS ClientHello and stop, and SLOW_TLS that complete a TLS handshake and then
send a request header one byte a second, never finishing it. Prints "held N" once all are open
(N counts those that connected, and completed their handshake where they have one), then sleeps
(sending the slow bytes).
usage: hold_connections.py HOST:PORT IDLE PARTIAL SECONDS [SLOW_TLS]"""

import socket
import ssl
import sys
import time

# A TLS handshake record header announcing 512 bytes, and 16 of them.
PARTIAL_CLIENT_HELLO = b"\x16\x03\x01\x02\x00" + b"\x01" + b"\x00" * 15
SLOW_HEADER_START = b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: "


def handshaken(address):
    """A TLS connection that has sent the start of a header, or None if it could not get there
    within 5 s."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the server's certificate is not what is tested
    try:
        sock = context.wrap_socket(socket.create_connection(address, timeout=5))
        sock.sendall(SLOW_HEADER_START)
        return sock
    except OSError:
        return None


def main():
    host, _, port = sys.argv[1].rpartition(":")
    address = (host, int(port))
    idle, partial, seconds = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    slow_tls = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    held = []
    for i in range(idle + partial):
        sock = socket.create_connection(address, timeout=5)
        if i >= idle:
            sock.sendall(PARTIAL_CLIENT_HELLO)
        held.append(sock)
    slow = [sock for sock in (handshaken(address) for _ in range(slow_tls)) if sock]
    print(f"held {len(held) + len(slow)}", flush=True)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(1)
        for sock in slow:
            try:
                sock.sendall(b"x")
            except OSError:
                pass  # closed by the server: it may, after its header timeout


if __name__ == "__main__":
    main()
