#!/usr/bin/env python3
"""Sends the malformed requests published against civetweb 1.15 to HOST:PORT, one connection each,
and prints one line per shape: its name and the status line answered ("closed" when none).

The shapes: a path of many slashes (within and beyond the 16 KiB header limit), NUL bytes in the
request line and in a header, a 1 MiB header, a request line with no HTTP version, a header
line with no colon, and a Content-Length that does not parse. What the server answers each one
is its business; the test around it checks that it still serves afterwards.
"""

import socket
import sys

SHAPES = {
    "slashes_10k": b"GET /" + b"/" * 10000 + b"metrics HTTP/1.1\r\nHost: x\r\n\r\n",
    "slashes_100k": b"GET /" + b"/" * 100000 + b"metrics HTTP/1.1\r\nHost: x\r\n\r\n",
    "nul_in_request_line": b"GET /met\x00rics HTTP/1.1\r\nHost: x\r\n\r\n",
    "nul_in_header": b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n",
    "header_1mib": b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (1 << 20) + b"\r\n\r\n",
    "no_version": b"GET /metrics\r\n\r\n",
    "header_without_colon": b"GET /metrics HTTP/1.1\r\nHost x\r\n\r\n",
    "bad_content_length": b"POST /-/trigger HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
}


def send_shape(address, request):
    with socket.create_connection(address, timeout=5) as sock:
        try:
            sock.sendall(request)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the server may close before it has read everything: that is an answer too
        try:
            answer = sock.recv(200)
        except OSError:
            answer = b""
    line = answer.split(b"\r\n", 1)[0].decode("latin-1")
    return line or "closed"


def main():
    host, _, port = sys.argv[1].rpartition(":")
    for name, request in SHAPES.items():
        print(f"{name}: {send_shape((host, int(port)), request)}", flush=True)


if __name__ == "__main__":
    main()
