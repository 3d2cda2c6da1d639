#!/usr/bin/env python3
"""The scenario's backend: serves 1 MiB chunks over loopback TCP to one client, then exits.

Prints the port it listens on (127.0.0.1, chosen by the kernel) as its first line of output.
The client asks for each chunk with one byte, so the traffic follows the client's pace.
"""
import ctypes
import socket

CHUNK = 1 << 20
PR_SET_NAME = 15


def main():
    # A distinct comm makes the two processes easy to tell apart in replay and /metrics.
    ctypes.CDLL(None).prctl(PR_SET_NAME, b"chunk-server", 0, 0, 0)
    payload = bytes(range(256)) * (CHUNK // 256)
    with socket.create_server(("127.0.0.1", 0)) as server:
        print(server.getsockname()[1], flush=True)
        server.settimeout(60)
        conn, _ = server.accept()
        with conn:
            while conn.recv(1):
                conn.sendall(payload)


if __name__ == "__main__":
    main()
