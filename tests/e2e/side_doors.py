#!/usr/bin/env python3
"""Every way into a process over a socket, and what each gives a stranger.

  side_doors.py list PID
      prints one line per listening socket PID holds, from its descriptors and the kernel's
      socket tables: "tcp HOST:PORT", "tcp6 [HOST]:PORT" or "unix PATH" ("unix @NAME" for an
      abstract name). Needs the right to read /proc/PID/fd (root, or the same user).
  side_doors.py probe ADDRESS...
      for each such line, connects and asks plainly for /metrics and /incidents, then asks again
      over TLS without a client certificate (the server's certificate unchecked); prints one line
      per attempt: "ADDRESS ATTEMPT: STATUS-LINE", or "ADDRESS ATTEMPT: no answer (WHY)". Meant to
      run as an unprivileged user: the caller checks that no line carries an HTTP status.
"""

import os
import socket
import ssl
import sys

TCP_LISTEN = "0A"
UNIX_ACCEPTING = 0x10000  # __SO_ACCEPTCON in /proc/net/unix's Flags


def socket_inodes(pid):
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue  # closed meanwhile
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    return inodes


def tcp_address(hex_address, v6):
    host_hex, port_hex = hex_address.split(":")
    raw = bytes.fromhex(host_hex)
    # The kernel prints each 32-bit word of the address in host (little-endian) order.
    words = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
    host = socket.inet_ntop(socket.AF_INET6 if v6 else socket.AF_INET, words)
    port = int(port_hex, 16)
    return f"tcp6 [{host}]:{port}" if v6 else f"tcp {host}:{port}"


def tcp_listeners(pid, inodes):
    for table, v6 in (("tcp", False), ("tcp6", True)):
        with open(f"/proc/{pid}/net/{table}") as lines:
            next(lines)
            for line in lines:
                fields = line.split()
                if fields[3] == TCP_LISTEN and fields[9] in inodes:
                    yield tcp_address(fields[1], v6)


def unix_listeners(pid, inodes):
    with open(f"/proc/{pid}/net/unix") as lines:
        next(lines)
        for line in lines:
            fields = line.split()
            if int(fields[3], 16) & UNIX_ACCEPTING and fields[6] in inodes:
                yield "unix " + (fields[7] if len(fields) > 7 else "(unnamed)")


def list_listeners(pid):
    inodes = socket_inodes(pid)
    for listener in [*tcp_listeners(pid, inodes), *unix_listeners(pid, inodes)]:
        print(listener)


def connect(address):
    kind, _, where = address.partition(" ")
    if kind == "unix":
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(3)
        sock.connect("\0" + where[1:] if where.startswith("@") else where)
        return sock
    host, _, port = where.rpartition(":")
    return socket.create_connection((host.strip("[]"), int(port)), timeout=3)


def status_line(sock, path):
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    answer = b""
    while b"\r\n" not in answer and len(answer) < 4096:
        chunk = sock.recv(4096)
        if not chunk:
            break
        answer += chunk
    line = answer.split(b"\r\n")[0]
    if not line.startswith(b"HTTP/"):
        return f"no answer ({len(answer)} bytes, none of them HTTP)"
    return line.decode(errors="replace")


def attempt(address, name, path, tls):
    try:
        with connect(address) as sock:
            if tls:
                context = ssl.create_default_context()
                context.check_hostname = False
                context.verify_mode = ssl.CERT_NONE
                with context.wrap_socket(sock) as secured:
                    result = status_line(secured, path)
            else:
                result = status_line(sock, path)
    except (OSError, ssl.SSLError) as error:
        result = f"no answer ({type(error).__name__}: {error})"
    print(f"{address} {name}: {result}", flush=True)


def probe(addresses):
    for address in addresses:
        for path in ("/metrics", "/incidents"):
            attempt(address, f"plain {path}", path, tls=False)
            attempt(address, f"tls {path}", path, tls=True)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "list":
        list_listeners(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "probe":
        probe(sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
