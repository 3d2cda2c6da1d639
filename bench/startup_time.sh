#!/usr/bin/env bash
# Start-up time with N stored incidents: fills a scratch incident directory with N copies of one
# real incident, starts `flightrec daemon` (default config but for the incident directory and a
# max_count of at least N, so retention deletes nothing), and prints how long after the start
# /metrics first answers 200 and when the start-up scan of the store has finished.
#
# The incident: INCIDENT_FILE if given, else one recorded here first (the daemon runs
# SOURCE_SECONDS, default 135, then POST /-/trigger: the whole buffer and 5 s after it, ~2.3 MB on
# a 2-vCPU VM, the size of the incidents issue 12 measured). Pass the same file to compare
# two builds (SAVE_INCIDENT=PATH keeps the recorded one there). A build without the background scan serves only after its scan: for it "scan done"
# is the first answer.
# usage: bench/startup_time.sh path/to/flightrec N [INCIDENT_FILE]
set -euo pipefail
flightrec=${1:?usage: $0 path/to/flightrec N [INCIDENT_FILE]}
count=${2:?usage: $0 path/to/flightrec N [INCIDENT_FILE]}
work=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

record_incident() {
  local port
  port=$(free_port)
  mkdir -p "$work/source"
  printf 'incidents:\n  dir: %s/source\n' "$work" >"$work/source.yaml"
  "$flightrec" daemon --config.file="$work/source.yaml" --web.listen-address="127.0.0.1:$port" \
    2>"$work/source.log" &
  pid=$!
  echo "recording ${SOURCE_SECONDS:-135} s for the incident ..." >&2
  sleep "${SOURCE_SECONDS:-135}"
  curl -sf -X POST "http://127.0.0.1:$port/-/trigger?reason=startup_time" >/dev/null
  for _ in $(seq 200); do
    ls "$work"/source/*.flightrec >/dev/null 2>&1 && break
    sleep 0.1
  done
  kill "$pid"
  wait "$pid" || true
  pid=""
  local recorded=("$work"/source/*.flightrec)
  echo "${recorded[0]}"
}

incident=${3:-$(record_incident)}
if [ -n "${SAVE_INCIDENT:-}" ] && [ -z "${3:-}" ]; then cp "$incident" "$SAVE_INCIDENT"; fi
mkdir -p "$work/incidents"
python3 - "$incident" "$work/incidents" "$count" <<'PY'
import shutil, sys
source, store, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
for n in range(count):
    shutil.copyfile(source, f"{store}/20261201T{n // 3600 % 24:02d}{n // 60 % 60:02d}{n % 60:02d}.000Z-copy.flightrec")
PY
sync
max_count=$((count > 100 ? count : 100))
printf 'incidents:\n  dir: %s/incidents\n  max_count: %d\n  max_bytes: 1000GiB\n' "$work" "$max_count" \
  >"$work/flightrec.yaml"

port=$(free_port)
url="http://127.0.0.1:$port"
began=$(now_ms)
"$flightrec" daemon --config.file="$work/flightrec.yaml" --web.listen-address="127.0.0.1:$port" \
  2>"$work/daemon.log" &
pid=$!
until [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/metrics")" = 200 ]; do
  kill -0 "$pid" 2>/dev/null || { cat "$work/daemon.log" >&2; exit 1; }
  sleep 0.005
done
metrics_ms=$(($(now_ms) - began))
while true; do
  scan=$(curl -sI "$url/incidents" | tr -d '\r' | sed -n 's/^Flightrec-Incident-Scan: //Ip')
  if [ -z "$scan" ] || [ "${scan%%;*}" = "done" ]; then break; fi
  sleep 0.05
done
# When the log says the scan finished; a build that scans before serving logs no such line, and
# its scan was over when it logged that it listens.
log_ms() {
  local ts
  ts=$(grep -m1 -F "$1" "$work/daemon.log" | sed -n 's/^ts=\([^ ]*\) .*/\1/p')
  [ -n "$ts" ] && echo $(($(date -d "$ts" +%s%3N) - began))
}
scan_ms=$(log_ms 'msg="incident scan finished"' || log_ms 'msg=listening')
printf '%s incidents of %s bytes (%s MB): first /metrics 200 after %d ms, scan done after %d ms\n' \
  "$count" "$(stat -c %s "$incident")" "$(du -sb "$work/incidents" | awk '{ printf "%.0f", $1 / 1e6 }')" \
  "$metrics_ms" "$scan_ms"
