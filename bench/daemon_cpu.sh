#!/usr/bin/env bash
# What leaving flightrec running costs, beside the tools an operator would otherwise leave running.
# Each tool runs alone for SECONDS with its defaults (flightrec after a 10 s warm-up; as root the
# process tier and eBPF are on) and is measured two ways:
#  - process CPU: the scheduler's exact on-CPU time (/proc/<pid>/task/*/schedstat) of the tool and
#    every process it started, as % of one core; for flightrec also per thread group;
#  - machine busy delta: the machine's busy time from /proc/stat idle deltas (exact with NO_HZ
#    idle), minus a baseline measured over the same SECONDS with none of them running, as % of one
#    core. This includes what the process's own time does not: waking idle CPUs, interrupts,
#    kernel work done on its behalf (and anything else the machine did meanwhile, so run it on an
#    otherwise idle machine).
# node_exporter is scraped every 1 s by a curl loop, whose own CPU is reported on its own row and
# taken out of node_exporter's machine delta.
# flightrec runs twice: with its defaults (the eBPF in-kernel tick where it loads) and with
# sampler.backend: procfs; each gets a row for its BPF programs' own run time, which the kernel
# counts apart from any thread (the in-kernel tick runs in a timer interrupt).
# usage: bench/daemon_cpu.sh path/to/flightrec [SECONDS]   (as root for the full daemon)
set -euo pipefail
flightrec=$(realpath "${1:?usage: $0 path/to/flightrec [SECONDS]}")
seconds=${2:-60}
warmup=10
work=$(mktemp -d)
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
[ "$(id -u)" -eq 0 ] || echo "note: not root: flightrec runs without the process tier's eBPF" >&2

# tree_cpu PID: "<tid> <group> <ns>" for every thread of PID and its descendants, the group being
# flightrec's thread group name (the same mapping as flightrec_self_cpu_seconds_total).
cat >"$work/tree_cpu.py" <<'EOF'
import os, sys
root = int(sys.argv[1])
children = {}
for entry in os.listdir('/proc'):
    if not entry.isdigit():
        continue
    try:
        with open(f'/proc/{entry}/stat') as f:
            ppid = int(f.read().rsplit(')', 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        continue
    children.setdefault(ppid, []).append(int(entry))
todo, tree = [root], []
while todo:
    pid = todo.pop()
    tree.append(pid)
    todo.extend(children.get(pid, []))
def group(comm):
    if comm in ('sampler', 'recorder', 'processes'):
        return comm
    return 'http' if comm.startswith('civetweb') else 'other'
for pid in tree:
    try:
        tids = os.listdir(f'/proc/{pid}/task')
    except OSError:
        continue
    for tid in tids:
        try:
            with open(f'/proc/{pid}/task/{tid}/comm') as f:
                comm = f.read().strip()
            with open(f'/proc/{pid}/task/{tid}/schedstat') as f:
                ns = int(f.read().split()[0])
        except (OSError, IndexError, ValueError):
            continue
        print(tid, group(comm), ns)
EOF
tree_cpu() { python3 "$work/tree_cpu.py" "$1"; }

# busy and total jiffies of the whole machine (guest time is already inside user).
machine() { awk '/^cpu / { t = 0; for (i = 2; i <= 9; i++) t += $i; print t - $5 - $6, t; exit }' /proc/stat; }
ncpu=$(nproc)
# busy_pct BEFORE AFTER: the machine's busy time between two `machine` readings, % of one core.
busy_pct() {
  echo "$1 $2" | awk -v n="$ncpu" '{ printf "%.2f", ($3 - $1) / ($4 - $2) * n * 100 }'
}
# thread_pct BEFORE_FILE AFTER_FILE: per group CPU % of one core over $seconds, then "total".
# A thread new in AFTER counts whole; one gone from AFTER counts nothing (it ran too little to matter).
thread_pct() {
  awk -v s="$seconds" 'NR == FNR { before[$1] = $3; next }
    { d = $3 - before[$1]; g[$2] += d; total += d }
    END { for (k in g) printf "%s %.2f\n", k, g[k] / s / 1e7; printf "total %.2f\n", total / s / 1e7 }' \
    "$1" "$2"
}

# measure NAME PID: samples the tree of PID and the machine over $seconds; sets proc_pct, busy.
measure() {
  local m0 m1
  tree_cpu "$2" >"$work/$1.t0"; m0=$(machine)
  sleep "$seconds"
  tree_cpu "$2" >"$work/$1.t1"; m1=$(machine)
  thread_pct "$work/$1.t0" "$work/$1.t1" >"$work/$1.pct"
  proc_pct=$(awk '$1 == "total" { print $2 }' "$work/$1.pct")
  busy=$(busy_pct "$m0" "$m1")
}
stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }
rows=()
row() { rows+=("$(printf '%-34s %10s %12s' "$1" "$2" "$3")"); }
delta() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }
# machine_delta BUSY [EXCLUDED]: BUSY minus the baseline and EXCLUDED; "void" on a busy machine.
machine_delta() {
  if [ "$saturated" = 1 ]; then echo void; else delta "$(delta "$1" "$baseline")" "${2:-0}"; fi
}

echo "baseline: the machine for ${seconds} s with nothing started" >&2
m0=$(machine); sleep "$seconds"; m1=$(machine)
baseline=$(busy_pct "$m0" "$m1")
# Over half busy without any tool, a tool's share of the idle time is not measurable.
saturated=$(awk -v b="$baseline" -v n="$ncpu" 'BEGIN { print (b > 50 * n) ? 1 : 0 }')

# bpf_seconds PORT: the daemon's BPF programs' run time so far (flightrec_bpf_run_seconds_total,
# counted while the daemon holds BPF statistics on), which no thread's CPU time includes.
bpf_seconds() {
  curl -s "http://127.0.0.1:$1/metrics" |
    awk '/^flightrec_bpf_run_seconds_total/ { t += $2 } END { printf "%.6f", t }'
}

# run_flightrec BACKEND: the daemon with the defaults but sampler.backend BACKEND; adds its rows.
run_flightrec() {
  echo "flightrec (sampler.backend: $1): warm-up ${warmup} s, then ${seconds} s" >&2
  local port fr bpf0 bpf1 bpf_pct backend
  port=$(free_port)
  printf 'sampler:\n  backend: %s\nincidents:\n  dir: %s/incidents\n' "$1" "$work" \
    >"$work/flightrec.yaml"
  "$flightrec" daemon --config.file="$work/flightrec.yaml" --web.listen-address="127.0.0.1:$port" \
    2>"$work/flightrec-$1.log" &
  fr=$!; pids+=("$fr")
  sleep "$warmup"
  kill -0 "$fr" || { cat "$work/flightrec-$1.log" >&2; exit 1; }
  backend=$(sed -n 's/.*msg="sampler backend" backend=\([a-z]*\).*/\1/p' "$work/flightrec-$1.log")
  bpf0=$(bpf_seconds "$port")
  measure "flightrec-$1" "$fr"
  bpf1=$(bpf_seconds "$port")
  stop "$fr"
  bpf_pct=$(awk -v a="$bpf0" -v b="$bpf1" -v s="$seconds" 'BEGIN { printf "%.2f", (b - a) / s * 100 }')
  row "flightrec, $backend sampler" "$proc_pct" "$(machine_delta "$busy")"
  row "  + its BPF programs' run time" "$bpf_pct" ""
  row "  = process + BPF" "$(awk -v a="$proc_pct" -v b="$bpf_pct" 'BEGIN { printf "%.2f", a + b }')" ""
  breakdown+="flightrec, $backend sampler, by thread group (% of one core):"$'\n'
  breakdown+=$(sort "$work/flightrec-$1.pct" | awk '$1 != "total" { printf "  %-10s %6.2f\n", $1, $2 }')
  breakdown+=$'\n'
}
breakdown=""
run_flightrec auto
run_flightrec procfs

echo "prometheus-node-exporter scraped every 1 s: ${seconds} s" >&2
port=$(free_port)
prometheus-node-exporter --web.listen-address="127.0.0.1:$port" 2>"$work/ne.log" &
ne=$!; pids+=("$ne")
sleep 2
# The scraper reports its own (children's) CPU with `times` when it ends.
(
  for _ in $(seq "$seconds"); do
    curl -s -o /dev/null "http://127.0.0.1:$port/metrics" || true
    sleep 1
  done
  times >"$work/curl.times"
) &
scraper=$!; pids+=("$scraper")
measure node_exporter "$ne"
wait "$scraper" || true
stop "$ne"
# `times` line 2: children's user and system time as XmY.YYYs.
curl_pct=$(awk -v s="$seconds" 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m");
  t += p[1] * 60 + p[2] } printf "%.2f", t / s * 100 }' "$work/curl.times")
row "node_exporter (1 s scrapes)" "$proc_pct" "$(machine_delta "$busy" "$curl_pct")"
row "  the curl scraper itself" "$curl_pct" ""

if command -v atop >/dev/null; then
  echo "atop -w FILE 1: ${seconds} s" >&2
  atop -w "$work/atop.raw" 1 >/dev/null 2>&1 &
  at=$!; pids+=("$at")
  sleep 2
  measure atop "$at"
  stop "$at"
  row "atop -w FILE 1" "$proc_pct" "$(machine_delta "$busy")"
else
  row "atop" "not installed" ""
fi

if command -v netdata >/dev/null; then
  echo "netdata (defaults, plugins included): warm-up ${warmup} s, then ${seconds} s" >&2
  # In a session of its own, so that stopping it stops every plugin it started.
  setsid netdata -D -p "$(free_port)" >"$work/netdata.log" 2>&1 &
  nd=$!; pids+=("$nd")
  sleep "$warmup"
  measure netdata "$nd"
  kill -- "-$nd" 2>/dev/null || true
  stop "$nd"
  row "netdata (with its plugins)" "$proc_pct" "$(machine_delta "$busy")"
else
  row "netdata" "not installed" ""
fi

echo "machine: $ncpu CPUs; baseline busy without any tool: $baseline % of one core over ${seconds} s"
if [ "$saturated" = 1 ]; then
  echo "warning: the machine was over half busy without any tool: no machine deltas (void)"
fi
printf '%-34s %10s %12s\n' "tool" "process %" "machine Δ %"
printf '%s\n' "${rows[@]}"
printf '%s' "$breakdown"
