#!/usr/bin/env bash
# CPU cost of the eBPF programs per run, from the kernel's own BPF statistics: starts a daemon (which
# loads the traffic and exit programs), turns on kernel.bpf_stats_enabled for the measurement (and
# restores it), moves known loopback traffic (1 GiB TCP, 200,000 UDP datagrams of 64 bytes), then
# prints run count and average ns per run of each of the daemon's programs. Needs root.
# usage: bench/ebpf_overhead.sh path/to/flightrec
set -euo pipefail
flightrec=${1:?usage: $0 path/to/flightrec}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
was_enabled=$(sysctl -n kernel.bpf_stats_enabled)
cleanup() {
  sysctl -qw kernel.bpf_stats_enabled="$was_enabled"
  kill "$pid" 2>/dev/null || true
  rm -rf "$work"
}
prog_ids() { bpftool prog show --json | python3 -c 'import json,sys; print(" ".join(str(p["id"]) for p in json.load(sys.stdin)))'; }

before=$(prog_ids)
printf 'incidents:\n  dir: %s/incidents\n' "$work" >"$work/flightrec.yaml"
"$flightrec" daemon --config.file="$work/flightrec.yaml" --web.listen-address=127.0.0.1:0 2>"$work/log" &
pid=$!
trap cleanup EXIT
sleep 2
grep -q 'backend=ebpf' "$work/log" || { echo "the daemon did not load the eBPF backend:" >&2; cat "$work/log" >&2; exit 1; }

stats() {  # id name run_cnt run_time_ns of the programs loaded since the start
  bpftool prog show --json | python3 -c '
import json, sys
before = set(sys.argv[1].split())
for p in json.load(sys.stdin):
    if str(p["id"]) not in before:
        print(p["id"], p.get("name", "?"), p.get("run_cnt", 0), p.get("run_time_ns", 0))' "$before"
}
sysctl -qw kernel.bpf_stats_enabled=1
stats >"$work/start"
python3 "$here/../tests/e2e/net_traffic.py" --tcp-bytes 1073741824 --udp-bytes 200000 --hold 0 >/dev/null
python3 - "$work" <<'PY'
import socket, sys
# 200,000 small datagrams: the per-packet programs dominate.
out = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sink = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sink.bind(("127.0.0.1", 0))
sink.setblocking(False)
for i in range(200000):
    out.sendto(b"x" * 64, sink.getsockname())
    if i % 64 == 0:
        try:
            while True:
                sink.recv(128)
        except BlockingIOError:
            pass
PY
stats >"$work/end"
sysctl -qw kernel.bpf_stats_enabled="$was_enabled"
python3 - "$work/start" "$work/end" <<'PY'
import sys
def load(path):
    return {f[0]: (f[1], int(f[2]), int(f[3])) for f in (l.split() for l in open(path))}
start, end = load(sys.argv[1]), load(sys.argv[2])
print(f"{'program':<24}{'runs':>12}{'ns per run':>12}")
for pid_, (name, runs, ns) in sorted(end.items(), key=lambda kv: kv[1][0]):
    r0, n0 = start.get(pid_, (name, 0, 0))[1:]
    runs, ns = runs - r0, ns - n0
    print(f"{name:<24}{runs:>12}{(ns / runs if runs else 0):>12.0f}")
PY
