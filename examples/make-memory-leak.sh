#!/usr/bin/env bash
# Records examples/memory-leak.flightrec: flightrec itself watching a scripted memory leak.
#
#   examples/make-memory-leak.sh [path/to/flightrec]     (default: build/flightrec; needs root)
#
# 0. Re-runs itself in fresh PID, mount, network, UTS and cgroup namespaces (unshare), so the
#    recording holds the scenario's processes only: this script is pid 1, and neither the build
#    machine's processes, its sockets, its host name nor its paths appear.
# 1. Starts `flightrec daemon` on a free loopback port with examples/memory-leak.yaml, its rule
#    threshold set to the memory used now + 640 MiB and its incidents in a private /tmp.
# 2. Starts the red herring, a compiler building scenario/busy_build.cpp over and over. After 3 s
#    of baseline, starts chunk_server.py and leaky_cache.py: the cache fetches 1 MiB chunks over
#    loopback TCP and never evicts them, 64 MiB every 0.5 s up to 960 MiB, holds them 3 s, exits.
# 3. Waits for the incident at /incidents, downloads it, checks that the leaking process tops the
#    memory ordering at the trigger point with 256 MiB or more, and only then replaces
#    examples/memory-leak.flightrec.
# Memory is the machine's, namespaces or not: run it on a quiet machine. Another process growing
# by hundreds of MiB at the same time would trip the rule first (step 3 then refuses the file).
set -euo pipefail

EXAMPLES=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ "${FLIGHTREC_EXAMPLE_NAMESPACES:-}" != 1 ]; then
  [ "$(id -u)" = 0 ] || { echo "make-memory-leak: needs root (unshare)" >&2; exit 1; }
  # The binary's path goes in the environment, not on the command line: the recording shows
  # pid 1 as `bash make-memory-leak.sh`.
  exec unshare --pid --fork --mount-proc --net --uts --cgroup \
    env --chdir="$EXAMPLES" FLIGHTREC_EXAMPLE_NAMESPACES=1 \
    FLIGHTREC="$(realpath "${1:-$EXAMPLES/../build/flightrec}")" bash make-memory-leak.sh
fi

OUTPUT="$EXAMPLES/memory-leak.flightrec"
LEAK_THRESHOLD_MIB=640
# The system's python keeps the recorded command lines short (a version manager's shim would put
# its own long path there); any python3 works.
PYTHON=$(command -v /usr/bin/python3 python3 | head -1)
hostname example
ip link set lo up
mount -t tmpfs -o size=256m example-tmp /tmp # private to this mount namespace, gone with it
WORK=/tmp/example
mkdir "$WORK"
PIDS=()

cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

die() { echo "make-memory-leak: $*" >&2; exit 1; }

meminfo_kib() { awk -v key="$1:" '$1 == key { print $2 }' /proc/meminfo; }
used_bytes=$((($(meminfo_kib MemTotal) - $(meminfo_kib MemAvailable)) * 1024))
threshold=$((used_bytes + LEAK_THRESHOLD_MIB * 1024 * 1024))
echo "memory used at start: $((used_bytes >> 20)) MiB; rule fires above $((threshold >> 20)) MiB"

sed -e "s|^\(    value:\) 8GiB .*|\1 $threshold|" \
  -e "s|^\(  dir:\) .*|\1 $WORK/incidents|" "$EXAMPLES/memory-leak.yaml" >"$WORK/config.yaml"
grep -q "value: $threshold\$" "$WORK/config.yaml" || die "memory-leak.yaml: no 'value: 8GiB' line to fill in"

# `exec -a`: the process list shows `flightrec daemon ...`, not where this build keeps its binary.
(cd "$WORK" && exec -a flightrec "$FLIGHTREC" daemon --web.listen-address=127.0.0.1:0 \
  --config.file=config.yaml 2>daemon.log) &
PIDS+=($!)
url=""
for _ in $(seq 100); do
  url=$(sed -n 's/.*msg=listening url=\([^ ]*\).*/\1/p' "$WORK/daemon.log" | head -1)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { cat "$WORK/daemon.log" >&2; die "the daemon did not start"; }
echo "daemon at $url"

# The busy compiler: more CPU than the leak, and an RSS that comes and goes.
while :; do c++ -std=c++20 -O2 -x c++ -c -o /dev/null - <scenario/busy_build.cpp; done &
PIDS+=($!)

sleep 3 # the baseline before the leak
# Relative script paths: the recording shows `python3 scenario/leaky_cache.py ...`.
coproc SERVER { exec "$PYTHON" scenario/chunk_server.py; }
PIDS+=("$SERVER_PID")
read -r port <&"${SERVER[0]}"
"$PYTHON" scenario/leaky_cache.py --port "$port" --step-mib 64 --steps 15 \
  --interval 0.5 --hold 3 >"$WORK/leak.log" &
leak_pid=$!
PIDS+=("$leak_pid")
echo "leaky-cache is pid $leak_pid, chunk-server pid $SERVER_PID"

id=""
for _ in $(seq 120); do
  # One curl per poll, matched by bash itself: every process here shows in the recording. The
  # rule's cooldown lets one incident through, so the first id is that incident's.
  incidents=$(curl -sf "$url/incidents") || incidents=""
  if [[ $incidents == *'"status":"written"'* && $incidents =~ \"id\":\"([^\"]+)\" ]]; then
    id=${BASH_REMATCH[1]}
    break
  fi
  sleep 0.5
done
[ -n "$id" ] || { cat "$WORK/daemon.log" "$WORK/leak.log" >&2; die "no incident within 60 s"; }
echo "incident $id"
curl -sf "$url/incidents/$id?format=raw" -o "$WORK/incident.flightrec"

read -r top_pid top_rss < <("$FLIGHTREC" replay "$WORK/incident.flightrec" --batch --sort MEM% \
  --format json | "$PYTHON" -c 'import json, sys; r = json.load(sys.stdin)["rows"][0]; print(r["pid"], r["rss_bytes"])')
[ "$top_pid" = "$leak_pid" ] ||
  die "at the trigger point pid $top_pid, not leaky-cache ($leak_pid), uses the most memory: run again on a quieter machine"
[ "$top_rss" -ge $((256 << 20)) ] ||
  die "the rule fired with leaky-cache at only $((top_rss >> 20)) MiB (something else grew too): run again on a quieter machine"

cp "$WORK/incident.flightrec" "$OUTPUT"
chmod 0644 "$OUTPUT"
echo "wrote $OUTPUT ($(stat -c %s "$OUTPUT") bytes)"
