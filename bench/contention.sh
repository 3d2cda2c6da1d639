#!/usr/bin/env bash
# Frames recorded while every CPU is oversubscribed 2x by ordinary (SCHED_OTHER) busy loops, in
# three modes: `on` and `off`, the procfs sampler (its thread's own timer) with the thread realtime
# (sampler.realtime: true, SCHED_FIFO) and without; `ebpf`, the in-kernel tick (sampler.backend:
# ebpf, docs/SOURCES.md "Backends") with the thread at normal priority. For each mode it
# starts a daemon (default config but processes.enabled: false, a temporary incidents dir, a free
# port), starts 2 x nproc busy loops, and reads the daemon's own counters from /metrics at the
# start and end of SECONDS:
#   expected  deadlines passed = delta flightrec_sampler_elapsed_seconds / sampler rate
#   frames    delta (ticks - queue overflows): frames handed to the recorder (checked below to
#             have all reached the ring once the load stops)
#   missed    delta (missed ticks + queue overflows): the deadlines counted as lost
#   accounting  ok when |frames + missed - expected| <= 0.1 % of expected
# One logfmt line per mode (tests/e2e/contention.sh reads them). Run as root (or with
# CAP_SYS_NICE) for the realtime mode to be realtime; otherwise its line says policy=SCHED_OTHER.
# The ebpf mode needs root (or CAP_BPF and CAP_PERFMON); its line names the backend that ran.
# usage: bench/contention.sh path/to/flightrec [SECONDS=20] [MODES="on off ebpf"]
set -euo pipefail
flightrec=${1:?usage: $0 path/to/flightrec [SECONDS] [MODES]}
seconds=${2:-20}
modes=${3:-on off ebpf}
work=$(mktemp -d)
daemon_pid=""
load_pids=()

stop_load() {
  if [ ${#load_pids[@]} -gt 0 ]; then
    kill "${load_pids[@]}" 2>/dev/null || true
    wait "${load_pids[@]}" 2>/dev/null || true
  fi
  load_pids=()
}
stop_daemon() {
  if [ -n "$daemon_pid" ]; then
    kill "$daemon_pid" 2>/dev/null || true
    wait "$daemon_pid" 2>/dev/null || true
  fi
  daemon_pid=""
}
cleanup() {
  stop_load
  stop_daemon
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM  # through the EXIT trap: no busy loop or daemon outlives the script

# start_daemon BACKEND REALTIME: a daemon with sampler.backend BACKEND and sampler.realtime
# REALTIME; sets url.
start_daemon() {
  printf 'sampler:\n  backend: %s\n  realtime: %s\nprocesses:\n  enabled: false\nincidents:\n  dir: %s/incidents\n' \
    "$1" "$2" "$work" >"$work/flightrec.yaml"
  : >"$work/daemon.log"  # exists before the loop below reads it, whenever the daemon starts
  "$flightrec" daemon --config.file="$work/flightrec.yaml" --web.listen-address=127.0.0.1:0 \
    2>"$work/daemon.log" &
  daemon_pid=$!
  url=""
  for _ in $(seq 100); do
    url=$(sed -n 's/.*msg=listening url=\([^ ]*\).*/\1/p' "$work/daemon.log" | head -1)
    [ -n "$url" ] && return 0
    sleep 0.05
  done
  echo "the daemon did not start; its log:" >&2
  cat "$work/daemon.log" >&2
  exit 1
}

# scrape FILE: the sampler's and recorder's counters, one "name value" line each.
scrape() {
  curl -sf --max-time 10 "${url}metrics" |
    awk '$1 ~ /^flightrec_(sampler_(ticks_total|missed_ticks_total|queue_overflows_total|elapsed_seconds|rate_seconds|realtime)|recorder_frames_total)$/ {print $1, $2}' >"$1"
  [ "$(wc -l <"$1")" -eq 7 ] || { echo "/metrics lacks the sampler's counters:" >&2; cat "$1" >&2; exit 1; }
}

# measure MODE: one run; prints its logfmt line.
measure() {
  if [ "$1" = ebpf ]; then start_daemon ebpf false; else start_daemon procfs "$([ "$1" = on ] && echo true || echo false)"; fi
  local backend
  backend=$(sed -n 's/.*msg="sampler backend" backend=\([a-z]*\).*/\1/p' "$work/daemon.log" | head -1)
  sleep 0.5
  for _ in $(seq $((2 * $(nproc)))); do
    sh -c 'while :; do :; done' &
    load_pids+=($!)
  done
  sleep 1  # the scheduler has spread the load
  scrape "$work/start"
  grep '^cpu ' /proc/stat >"$work/stat.start"
  sleep "$seconds"
  scrape "$work/end"
  grep '^cpu ' /proc/stat >"$work/stat.end"
  stop_load
  sleep 0.2  # the recorder drains its queue
  scrape "$work/after"
  stop_daemon
  # The hypervisor's share of the run (a VM's vCPUs descheduled by the host): no policy helps there.
  # Fields 2-9 are user .. steal; guest time (10, 11) is already counted in user and nice.
  steal=$(cat "$work/stat.start" "$work/stat.end" | awk '{ total[NR] = 0; for (i = 2; i <= 9; i++) total[NR] += $i; steal[NR] = $9 }
    END { printf "%.2f", (total[2] > total[1] ? (steal[2] - steal[1]) / (total[2] - total[1]) * 100 : 0) }')
  awk -v mode="$1" -v backend="$backend" -v steal="$steal" '
    { v[FILENAME "/" $1] = $2 }
    function d(name) { return v[end "/" name] - v[start "/" name] }
    END {
      start = ARGV[1]; end = ARGV[2]; after = ARGV[3]
      expected = d("flightrec_sampler_elapsed_seconds") / v[end "/flightrec_sampler_rate_seconds"]
      overflows = d("flightrec_sampler_queue_overflows_total")
      frames = d("flightrec_sampler_ticks_total") - overflows
      missed = d("flightrec_sampler_missed_ticks_total") + overflows
      deviation = (frames + missed - expected) / expected * 100
      handed = v[end "/flightrec_sampler_ticks_total"] - v[end "/flightrec_sampler_queue_overflows_total"]
      printf "mode=%s backend=%s policy=%s seconds=%.1f expected=%.0f frames=%d missed=%d recorded=%.3f%% accounting=%s deviation=%+.3f%% overflows=%d ring=%s steal=%s%%\n",
        mode, backend, (v[end "/flightrec_sampler_realtime"] == 1 ? "SCHED_FIFO" : "SCHED_OTHER"),
        expected * v[end "/flightrec_sampler_rate_seconds"], expected, frames, missed,
        frames / expected * 100, (deviation <= 0.1 && deviation >= -0.1) ? "ok" : "off", deviation, overflows,
        (v[after "/flightrec_recorder_frames_total"] >= handed ? "all" : "short"), steal
    }' "$work/start" "$work/end" "$work/after"
}

echo "# $(nproc) CPUs, $((2 * $(nproc))) SCHED_OTHER busy loops, ${seconds} s per mode, $(uname -r)"
for mode in $modes; do measure "$mode"; done
