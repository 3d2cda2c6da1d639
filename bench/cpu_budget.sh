#!/usr/bin/env bash
# sampler.cpu_budget at work, and what it can win at most. Three daemons, one after the other, each
# with the default config but for the lines named (processes off unless root, as the daemon does):
#  1. `cpu_budget: 0` (off), for SECONDS: the daemon's CPU at the configured rates;
#  2. every source's rate 1s (the budget's ceiling), budget off, for SECONDS: its CPU with every
#     source as slow as the budget can make it, i.e. the most the budget can take off;
#  3. `cpu_budget: 0.1%` (which no daemon meets), for STEPS_SECONDS: every 10 s its own view from
#     /metrics: the CPU it measured over the newest window and each source's rate now.
# CPU is the scheduler's on-CPU time of every thread (/proc/<pid>/task/*/schedstat), as % of a core.
# usage: bench/cpu_budget.sh path/to/flightrec [SECONDS] [STEPS_SECONDS]
set -euo pipefail
flightrec=$(realpath "${1:?usage: $0 path/to/flightrec [SECONDS] [STEPS_SECONDS]}")
seconds=${2:-30}
steps_seconds=${3:-120}
warmup=10
work=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# cpu_ns PID: the on-CPU ns of all its threads so far.
# "%.0f": mawk's %d stops at 2^31-1 ns (2.1 s).
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{s += $1} END {printf "%.0f\n", s}'; }

# start CONFIG_TEXT: a daemon on a free loopback port with that config; sets pid and url.
start() {
  printf 'incidents:\n  dir: %s/incidents\n%s\n' "$work" "$1" >"$work/config.yaml"
  : >"$work/daemon.log"
  "$flightrec" daemon --web.listen-address=127.0.0.1:0 --config.file="$work/config.yaml" \
    2>"$work/daemon.log" &
  pid=$!
  url=""
  for _ in $(seq 200); do
    url=$(sed -n 's/.*msg=listening url=\([^ ]*\).*/\1/p' "$work/daemon.log" | head -1)
    [ -n "$url" ] && return 0
    sleep 0.05
  done
  echo "daemon did not start:" >&2
  cat "$work/daemon.log" >&2
  exit 1
}

stop() {
  kill "$pid"
  wait "$pid" || true
  pid=""
}

# measure LABEL CONFIG_TEXT: the daemon's CPU over SECONDS after the warm-up.
measure() {
  start "$2"
  sleep "$warmup"
  local before after
  before=$(cpu_ns "$pid")
  sleep "$seconds"
  after=$(cpu_ns "$pid")
  stop
  awk -v label="$1" -v ns=$((after - before)) -v s="$seconds" \
    'BEGIN {printf "%-48s %6.2f %% of a core\n", label, ns / s / 1e7}'
}

every_source_at() {
  local out="sources:"
  for source in stat cgroup_cpu meminfo loadavg pressure vmstat diskstats netdev; do
    out+=$'\n'"  $source:"$'\n'"    rate: $1"
  done
  printf '%s\n' "$out"
}

echo "flightrec daemon, ${seconds} s each after ${warmup} s"
measure "configured rates (budget off)" $'sampler:\n  cpu_budget: 0'
measure "every source at 1s (the budget's ceiling)" \
  "$(printf 'sampler:\n  cpu_budget: 0\n%s' "$(every_source_at 1s)")"

echo
echo "cpu_budget: 0.1%, the daemon's own view every 10 s (used over its newest 10 s window)"
start $'sampler:\n  cpu_budget: 0.1%'
for t in $(seq 10 10 "$steps_seconds"); do
  sleep 10
  curl -s "${url}metrics" >"$work/metrics.prom"
  used=$(sed -n 's/^flightrec_sampler_cpu_budget_used_ratio //p' "$work/metrics.prom")
  rates=$(sed -n 's/^flightrec_source_rate_seconds{source="\([^"]*\)"} \(.*\)/\1=\2/p' \
    "$work/metrics.prom" | tr '\n' ' ')
  awk -v t="$t" -v used="${used:-0}" -v rates="$rates" \
    'BEGIN {printf "t=%3d s  used %5.2f %%  %s\n", t, used * 100, rates}'
done
echo "changes logged: $(grep -c 'sampler.cpu_budget:' "$work/daemon.log" || true)"
stop
