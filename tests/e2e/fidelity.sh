#!/usr/bin/env bash
# Fidelity of the per-source rates and of each sampler backend (issue 12): daemons record the same
# scripted load at the same time, A with the defaults (4 ms tick, each source at its own rate, the
# eBPF in-kernel tick where it loads), P (only when A runs on eBPF) with the defaults on the procfs
# backend, and B with the procfs backend and every source at 1 ms (the former sampler).
# fidelity.py then checks, for A and for P, that every series lies within what B saw over the
# series' own read step, that every CPU burst, the memory ramp, the disk writes and the loopback
# traffic show the same as in B, and that /metrics' window max shows the bursts /dump holds.
# FIDELITY_KEEP=DIR keeps the recordings, scrapes and load log there for a look afterwards.
source "$(dirname "$0")/lib.sh"
HERE=$(dirname "$0")
PID_A=""
PID_B=""
PID_P=""

stop_all() {
  for pid in $PID_A $PID_B $PID_P; do kill -9 "$pid" 2>/dev/null || true; done
}
trap 'stop_all; cleanup' EXIT

# write_config NAME BACKEND [RATE]: a config on sampler.backend BACKEND without the process tier or
# network backend (neither is compared), a window spanning the whole load, and with RATE every
# source and the tick at RATE. No CPU budget: B at 1 ms costs more than the default one, and would
# slow its sources.
write_config() {
  cat <<YAML >"$WORK/$1.yaml"
sampler:
  cpu_budget: 0
  backend: $2
${3:+  rate: $3}
incidents:
  dir: $WORK/incidents-$1
processes:
  enabled: false
network:
  backend: "off"
export:
  window: 30s
YAML
  if [ $# -ge 3 ]; then
    printf 'sources:\n' >>"$WORK/$1.yaml"
    for source in stat cgroup_cpu meminfo loadavg pressure vmstat diskstats netdev; do
      printf '  %s:\n    rate: %s\n' "$source" "$3" >>"$WORK/$1.yaml"
    done
  fi
}

# launch NAME: starts a daemon with NAME's config on a free port; its pid in PID_<NAME>.
launch() {
  "$FLIGHTREC" daemon --web.listen-address=127.0.0.1:0 --config.file="$WORK/$1.yaml" \
    2>"$WORK/$1.log" &
  printf -v "PID_$1" '%s' "$!"
}

# url_of NAME: the URL from NAME's log, once it listens.
url_of() {
  local url pid_var="PID_$1"
  for _ in $(seq 200); do
    url=$(sed -n 's/.*msg=listening url=\([^ ]*\).*/\1/p' "$WORK/$1.log" | head -1)
    if [ -n "$url" ]; then
      echo "$url"
      return 0
    fi
    kill -0 "${!pid_var}" 2>/dev/null || break
    sleep 0.05
  done
  echo "daemon $1 did not start; its log:" >&2
  cat "$WORK/$1.log" >&2
  exit 1
}

write_config A auto
write_config B procfs 1ms
write_config P procfs
launch A
launch B
URL_A=$(url_of A)
URL_B=$(url_of B)
# The procfs backend at the defaults too, when A ticks in the kernel; CI (as root, where the
# program must load) insists that it does.
if grep -q 'msg="sampler backend" backend=ebpf' "$WORK/A.log"; then
  DAEMONS="A P"
  launch P
  URL_P=$(url_of P)
else
  [ "${FLIGHTREC_REQUIRE_EBPF:-0}" != 1 ] || fail "A did not tick in the kernel: $(grep -m1 'sampler backend' "$WORK/A.log")"
  DAEMONS="A"
  echo "note: A runs on the procfs backend here ($(grep -m1 'sampler backend' "$WORK/A.log"))"
fi
sleep 0.5  # the rings hold frames from before the load starts

# The disk writes go to the work dir, or to the current dir (ctest's: the build tree) when the work
# dir is on tmpfs.
python3 "$HERE/fidelity_load.py" "$WORK" "$PWD" >"$WORK/load.json"
sleep 0.2  # the last reads after the load are in the rings
range=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print("from=%.6f&to=%.6f" % (d["start"] / 1e9 - 0.5, d["end"] / 1e9 + 0.1))' "$WORK/load.json")
# Each /metrics right after the load: its 30 s window covers the whole load.
for name in $DAEMONS B; do
  url_var="URL_$name"
  curl -sf -o "$WORK/metrics-$name.txt" "${!url_var}metrics" || fail "GET /metrics from $name"
done
for name in $DAEMONS B; do
  url_var="URL_$name"
  curl -sf -o "$WORK/$name.csv" "${!url_var}dump?${range}&format=csv" || fail "GET /dump from $name"
done

[ -z "${FIDELITY_KEEP:-}" ] || cp "$WORK"/*.csv "$WORK"/*.txt "$WORK/load.json" "$FIDELITY_KEEP"
for name in $DAEMONS; do
  backend=$(sed -n 's/.*msg="sampler backend" backend=\([a-z]*\).*/\1/p' "$WORK/$name.log" | head -1)
  if python3 "$HERE/fidelity.py" --load "$WORK/load.json" --a "$WORK/$name.csv" --b "$WORK/B.csv" \
    --metrics-a "$WORK/metrics-$name.txt" --metrics-b "$WORK/metrics-B.txt"; then
    pass "$name (default rates, $backend backend) and B (procfs, all at 1 ms) agree on the scripted load"
  else
    fail "$name ($backend backend) and B disagree (fidelity.py above)"
  fi
done
kill -TERM $PID_A $PID_B $PID_P
for name in $DAEMONS B; do
  pid_var="PID_$name"
  wait "${!pid_var}" || fail "daemon $name exited with $?: $(tail -3 "$WORK/$name.log")"
  printf -v "$pid_var" '%s' ""
done
finish
