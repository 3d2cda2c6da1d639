#!/usr/bin/env python3
"""Moves a known amount of traffic between four child processes on loopback, for the network
attribution test: a TCP sender writes exactly --tcp-bytes to a TCP receiver, a UDP sender sends
--udp-bytes in 1000-byte datagrams to a UDP receiver. Prints one JSON line with the pids and the
byte counts each side saw once the traffic is done, then keeps the children (and their sockets)
alive for --hold seconds so a sampler can still see them."""
import argparse
import json
import os
import socket
import sys
import time


def child(body):
    pid = os.fork()
    if pid == 0:
        try:
            body()
        finally:
            os._exit(0)
    return pid


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tcp-bytes", type=int, required=True)
    parser.add_argument("--udp-bytes", type=int, required=True)
    parser.add_argument("--hold", type=float, default=5.0)
    args = parser.parse_args()

    report_r, report_w = os.pipe()  # children write "name pid bytes" lines here

    def report(name, count):
        os.write(report_w, f"{name} {os.getpid()} {count}\n".encode())

    def linger():
        # Children keep their sockets until the parent ends the hold by closing the pipe (every
        # child closes its own copy of the write end, or the read would never see the end).
        os.close(release_w)
        os.read(release_r, 1)

    release_r, release_w = os.pipe()

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    udp_in = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp_in.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    udp_in.bind(("127.0.0.1", 0))

    def tcp_receiver():
        conn, _ = listener.accept()
        got = 0
        while got < args.tcp_bytes:
            data = conn.recv(1 << 16)
            if not data:
                break
            got += len(data)
        report("tcp_receiver", got)
        linger()

    def tcp_sender():
        s = socket.create_connection(listener.getsockname())
        payload = b"x" * args.tcp_bytes
        s.sendall(payload)
        report("tcp_sender", len(payload))
        linger()

    def udp_receiver():
        udp_in.settimeout(1.0)
        got = 0
        try:
            while got < args.udp_bytes:
                got += len(udp_in.recv(2048))
        except socket.timeout:
            pass  # datagrams lost on the way are the sender's, not ours
        report("udp_receiver", got)
        linger()

    def udp_sender():
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sent = 0
        while sent < args.udp_bytes:
            chunk = min(1000, args.udp_bytes - sent)
            sent += s.sendto(b"u" * chunk, udp_in.getsockname())
            if sent % 100000 == 0:
                time.sleep(0.001)  # let the receiver keep up: loopback drops on a full buffer
        report("udp_sender", sent)
        linger()

    pids = [child(tcp_receiver), child(udp_receiver)]
    time.sleep(0.1)
    pids += [child(tcp_sender), child(udp_sender)]
    # Each child reports once; the pipe never ends while they linger, so read four lines.
    result = {}
    lines = os.fdopen(report_r)
    while len(result) < 4:
        line = lines.readline()
        if not line:
            break
        name, pid, count = line.split()
        result[name] = {"pid": int(pid), "bytes": int(count)}
    print(json.dumps(result), flush=True)
    time.sleep(args.hold)
    os.close(release_w)
    for pid in pids:
        os.waitpid(pid, 0)
    return 0 if len(result) == 4 else 1


if __name__ == "__main__":
    sys.exit(main())
