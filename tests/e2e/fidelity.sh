#!/usr/bin/env bash
# Fidelity of the per-source rates (issue 12): two daemons record the same scripted load at the same
# time, A with the default rates (4 ms tick, each source at its own rate) and B with every source at
# 1 ms (the former sampler). fidelity.py then checks that every series of A lies within what B saw
# over A's own read step, that every CPU burst, the memory ramp, the disk writes and the loopback
# traffic show the same in both, and that /metrics' window max shows the bursts /dump holds.
# FIDELITY_KEEP=DIR keeps the recordings, scrapes and load log there for a look afterwards.
source "$(dirname "$0")/lib.sh"
HERE=$(dirname "$0")
PID_A=""
PID_B=""

stop_both() {
  for pid in $PID_A $PID_B; do kill -9 "$pid" 2>/dev/null || true; done
}
trap 'stop_both; cleanup' EXIT

# write_config NAME [RATE]: a config without the process tier or network backend (neither is
# compared), a window spanning the whole load, and with RATE every source and the tick at RATE.
# No CPU budget: B at 1 ms costs more than the default one, and would slow its sources.
write_config() {
  cat <<YAML >"$WORK/$1.yaml"
sampler:
  cpu_budget: 0
${2:+  rate: $2}
incidents:
  dir: $WORK/incidents-$1
processes:
  enabled: false
network:
  backend: "off"
export:
  window: 30s
YAML
  if [ $# -ge 2 ]; then
    printf 'sources:\n' >>"$WORK/$1.yaml"
    for source in stat cgroup_cpu meminfo loadavg pressure vmstat diskstats netdev; do
      printf '  %s:\n    rate: %s\n' "$source" "$2" >>"$WORK/$1.yaml"
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

write_config A
write_config B 1ms
launch A
launch B
URL_A=$(url_of A)
URL_B=$(url_of B)
sleep 0.5  # both rings hold frames from before the load starts

# The disk writes go to the work dir, or to the current dir (ctest's: the build tree) when the work
# dir is on tmpfs.
python3 "$HERE/fidelity_load.py" "$WORK" "$PWD" >"$WORK/load.json"
sleep 0.2  # the last reads after the load are in both rings
# A's /metrics right after the load: its 30 s window covers the whole load.
curl -sf -o "$WORK/metrics-A.txt" "${URL_A}metrics" || fail "GET /metrics from A"
curl -sf -o "$WORK/metrics-B.txt" "${URL_B}metrics" || fail "GET /metrics from B"

range=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print("from=%.6f&to=%.6f" % (d["start"] / 1e9 - 0.5, d["end"] / 1e9 + 0.1))' "$WORK/load.json")
curl -sf -o "$WORK/A.csv" "${URL_A}dump?${range}&format=csv" || fail "GET /dump from A"
curl -sf -o "$WORK/B.csv" "${URL_B}dump?${range}&format=csv" || fail "GET /dump from B"

[ -z "${FIDELITY_KEEP:-}" ] || cp "$WORK"/*.csv "$WORK"/*.txt "$WORK/load.json" "$FIDELITY_KEEP"
if python3 "$HERE/fidelity.py" --load "$WORK/load.json" --a "$WORK/A.csv" --b "$WORK/B.csv" \
  --metrics-a "$WORK/metrics-A.txt" --metrics-b "$WORK/metrics-B.txt"; then
  pass "A (per-source rates) and B (all at 1 ms) agree on the scripted load"
else
  fail "A and B disagree (fidelity.py above)"
fi
kill -TERM "$PID_A" "$PID_B"
for name in A B; do
  pid_var="PID_$name"
  wait "${!pid_var}" || fail "daemon $name exited with $?: $(tail -3 "$WORK/$name.log")"
  printf -v "$pid_var" '%s' ""
done
finish
