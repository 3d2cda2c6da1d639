#!/usr/bin/env bash
# Records examples/memory-leak.flightrec: flightrec itself watching a scripted memory leak.
#
#   examples/make-memory-leak.sh [path/to/flightrec]     (default: build/flightrec)
#
# 1. Starts `flightrec daemon` on a free loopback port with examples/memory-leak.yaml, its rule
#    threshold set to the memory used now + 320 MiB and its incidents in a temporary directory.
# 2. After 3 s of quiet baseline, starts chunk_server.py and leaky_cache.py: the cache fetches
#    1 MiB chunks over loopback TCP and never evicts them, 32 MiB every 0.5 s up to 480 MiB, holds
#    them 3 s and exits.
# 3. Waits for the incident at /incidents, downloads it, checks that the leaking process tops the
#    memory ordering at the trigger point, and only then replaces examples/memory-leak.flightrec.
# Run it on a quiet machine: another process growing by hundreds of MiB at the same time would
# trip the rule first (the check in step 3 then refuses the recording).
set -euo pipefail

EXAMPLES=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FLIGHTREC=$(realpath "${1:-$EXAMPLES/../build/flightrec}")
OUTPUT="$EXAMPLES/memory-leak.flightrec"
LEAK_THRESHOLD_MIB=320
# The system's python keeps the recorded command lines short (a version manager's shim would put
# its own long path there); any python3 works.
PYTHON=$(command -v /usr/bin/python3 python3 | head -1)
WORK=$(mktemp -d)
PIDS=()

cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
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

"$FLIGHTREC" daemon --web.listen-address=127.0.0.1:0 --config.file="$WORK/config.yaml" \
  2>"$WORK/daemon.log" &
PIDS+=($!)
url=""
for _ in $(seq 100); do
  url=$(sed -n 's/.*msg=listening url=\([^ ]*\).*/\1/p' "$WORK/daemon.log" | head -1)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { cat "$WORK/daemon.log" >&2; die "the daemon did not start"; }
echo "daemon at $url"

sleep 3 # the baseline before the leak
cd "$EXAMPLES" # relative script paths: the recording shows `python3 scenario/leaky_cache.py ...`
coproc SERVER { exec "$PYTHON" scenario/chunk_server.py; }
PIDS+=("$SERVER_PID")
read -r port <&"${SERVER[0]}"
"$PYTHON" scenario/leaky_cache.py --port "$port" --step-mib 32 --steps 15 \
  --interval 0.5 --hold 3 >"$WORK/leak.log" &
leak_pid=$!
PIDS+=("$leak_pid")
echo "leaky-cache is pid $leak_pid, chunk-server pid $SERVER_PID"

id=""
for _ in $(seq 300); do
  id=$(curl -sf "$url/incidents" | python3 -c '
import json, sys
written = [i["id"] for i in json.load(sys.stdin) if i["status"] == "written"]
print(written[0] if written else "")')
  [ -n "$id" ] && break
  sleep 0.1
done
[ -n "$id" ] || { cat "$WORK/daemon.log" >&2; die "no incident within 30 s"; }
echo "incident $id"
curl -sf "$url/incidents/$id?format=raw" -o "$WORK/incident.flightrec"

top_pid=$("$FLIGHTREC" replay "$WORK/incident.flightrec" --batch --sort MEM% --format json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["rows"][0]["pid"])')
[ "$top_pid" = "$leak_pid" ] ||
  die "at the trigger point pid $top_pid, not leaky-cache ($leak_pid), uses the most memory: run again on a quieter machine"

mv "$WORK/incident.flightrec" "$OUTPUT"
chmod 0644 "$OUTPUT"
echo "wrote $OUTPUT ($(stat -c %s "$OUTPUT") bytes)"
