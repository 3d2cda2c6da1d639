#!/usr/bin/env python3
"""Clients whose request bodies never come, for tests/e2e/unread_bodies.sh.

  unread_bodies.py hold HOST:PORT PATH COUNT SECONDS
    Opens COUNT connections, each sending a POST header to PATH that announces a 100 MB body, and
    sends no body. Prints, once every connection has had a second to be answered,
    "answered=A closed=C status=S,..." (A: how many got an answer, C: how many the server then
    closed, S: the answers' distinct status lines) and holds what is still open for SECONDS.

  unread_bodies.py trickle HOST:PORT PATH SECONDS
    One POST to PATH announcing 100,000 bytes, then sends one byte every 0.2 s for at most
    SECONDS. Prints "status=S closed_after=T" (S: the answer's status line, T: seconds from the
    header until the server closed) or "status=none closed_after=never".

  unread_bodies.py raw HOST:PORT
    Sends standard input (with \\n turned into \\r\\n) as one request and prints what comes back
    until the server closes (at most 5 s), then "closed" or "open"."""

import select
import socket
import sys
import time


def header(path, length):
    return (f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n").encode()


def address(text):
    host, _, port = text.rpartition(":")
    return (host, int(port))


def status_line(data):
    return data.split(b"\r\n", 1)[0].decode(errors="replace") if data else ""


def read_available(sock, received):
    """Appends what has arrived to received[sock]; True once the server has closed."""
    try:
        data = sock.recv(65536)
    except ConnectionResetError:
        return True
    received[sock] += data
    return not data


def hold(target, path, count, seconds):
    socks = []
    for _ in range(count):
        sock = socket.create_connection(address(target), timeout=5)
        sock.sendall(header(path, 100_000_000))
        socks.append(sock)
    received = {sock: b"" for sock in socks}
    closed = set()
    end = time.monotonic() + 1
    while time.monotonic() < end and len(closed) < count:
        ready, _, _ = select.select([s for s in socks if s not in closed], [], [], 0.05)
        for sock in ready:
            if read_available(sock, received):
                closed.add(sock)
    answered = [status_line(data) for data in received.values() if data]
    statuses = ",".join(sorted(set(answered))) or "none"
    print(f"answered={len(answered)} closed={len(closed)} status={statuses}", flush=True)
    time.sleep(seconds)


def trickle(target, path, seconds):
    sock = socket.create_connection(address(target), timeout=5)
    sock.sendall(header(path, 100_000))
    start = time.monotonic()
    received = {sock: b""}
    while time.monotonic() - start < seconds:
        ready, _, _ = select.select([sock], [], [], 0.2)
        if ready and read_available(sock, received):
            print(f"status={status_line(received[sock]) or 'none'} "
                  f"closed_after={time.monotonic() - start:.1f}")
            return
        try:
            sock.sendall(b"x")
        except OSError:
            pass  # closed: the next read says so
    print(f"status={status_line(received[sock]) or 'none'} closed_after=never")


def raw(target):
    request = sys.stdin.read().replace("\n", "\r\n").encode()
    sock = socket.create_connection(address(target), timeout=5)
    sock.sendall(request)
    received = {sock: b""}
    end = time.monotonic() + 5
    while time.monotonic() < end:
        ready, _, _ = select.select([sock], [], [], 0.1)
        if ready and read_available(sock, received):
            print(received[sock].decode(errors="replace"))
            print("closed")
            return
    print(received[sock].decode(errors="replace"))
    print("open")


def main():
    mode = sys.argv[1]
    if mode == "hold":
        hold(sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]))
    elif mode == "trickle":
        trickle(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    else:
        raw(sys.argv[2])


if __name__ == "__main__":
    main()
