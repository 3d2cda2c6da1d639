#!/usr/bin/env bash
# Start-up with a full incident store: the daemon samples and serves within 0.5 s whatever the
# store holds, because stored incidents are verified in the background; /incidents and /metrics
# say while that runs, and the scan still quarantines a corrupt file and removes a leftover
# temporary (docs/INCIDENTS.md, "Start-up scan and quarantine").
source "$(dirname "$0")/lib.sh"
copies=${STARTUP_SCAN_COPIES:-600}

# One valid recording of this machine (a raw dump: indexed like an incident), from a first run.
printf 'incidents:\n  dir: %s/incidents\n  max_count: 10000\nprocesses:\n  enabled: false\nnetwork:\n  backend: "off"\n' \
  "$WORK" >"$WORK/flightrec.yaml"
start_daemon --config.file="$WORK/flightrec.yaml"
for _ in $(seq 100); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "${URL}-/ready")" = 200 ] && break
  sleep 0.05
done
sleep 1
curl -sf -o "$WORK/one.flightrec" "${URL}dump?format=raw"
stop_daemon

# The store: that file under $copies incident names (each one's own millisecond), the oldest
# made corrupt (a flipped byte in its middle), and a temporary left by an interrupted write.
python3 - "$WORK/one.flightrec" "$WORK/incidents" "$copies" <<'PY'
import shutil, sys
source, store, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
for n in range(copies):
    shutil.copyfile(source, f"{store}/20261201T{n // 60000 % 24:02d}{n // 1000 % 60:02d}{n // 60 % 60:02d}"
                    f".{n % 1000:03d}Z-copy.flightrec")
PY
oldest=$(find "$WORK/incidents" -name '*.flightrec' | sort | head -1)
size=$(stat -c %s "$oldest")
printf '\xff\xff\xff\xff' | dd of="$oldest" bs=1 seek=$((size / 2)) conv=notrunc status=none
echo 'half a write' >"$WORK/incidents/20261201T235959.999Z-cut.flightrec.tmp.Ab12Cd"
echo "store: $copies files of $size bytes ($(du -sh "$WORK/incidents" | cut -f1))"

# Time from the start to the first answer of each endpoint, polled every 10 ms.
began=$(date +%s%N)
"$FLIGHTREC" daemon --web.listen-address=127.0.0.1:0 --config.file="$WORK/flightrec.yaml" \
  2>"$WORK/daemon.log" &
DAEMON_PID=$!
URL=""
for _ in $(seq 1000); do
  URL=$(sed -n 's/.*msg=listening url=\([^ ]*\).*/\1/p' "$WORK/daemon.log" | head -1)
  [ -n "$URL" ] && break
  sleep 0.01
done
# ms_until PATH: milliseconds from the start until PATH answers 200 (given up after 60 s).
ms_until() {
  for _ in $(seq 6000); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL$1")" = 200 ]; then
      echo $((($(date +%s%N) - began) / 1000000))
      return
    fi
    sleep 0.01
  done
  echo 60000
}
ready_ms=$(ms_until -/ready)
metrics_ms=$(ms_until metrics)
echo "/-/ready after $ready_ms ms, /metrics after $metrics_ms ms"
if [ "$ready_ms" -le 500 ]; then pass "/-/ready answers 200 within 0.5 s"; else fail "/-/ready took $ready_ms ms"; fi
if [ "$metrics_ms" -le 500 ]; then pass "/metrics answers 200 within 0.5 s"; else fail "/metrics took $metrics_ms ms"; fi

# While the scan runs: the header, files listed as verifying, the gauge.
headers=$(curl -s -D - -o "$WORK/listing.json" "${URL}incidents")
expect_contains "$headers" "Flightrec-Incident-Scan: running; verified=" "/incidents says the scan is running"
expect_contains "$(cat "$WORK/listing.json")" '"status":"verifying"' "/incidents lists unverified files as verifying"
pending=$(curl -s "${URL}metrics" | sed -n 's/^flightrec_incidents_scan_pending \([0-9]*\)$/\1/p')
if [ "${pending:-0}" -gt 0 ]; then pass "/metrics: flightrec_incidents_scan_pending $pending"; else fail "no pending files in /metrics: '$pending'"; fi
if [ ! -e "$WORK/incidents/20261201T235959.999Z-cut.flightrec.tmp.Ab12Cd" ]; then
  pass "the leftover temporary is removed at once"
else
  fail "the leftover temporary is still there"
fi

# Then it finishes: every copy indexed, the corrupt one quarantined, nothing pending.
wait_incident_scan 60
expect_contains "$(curl -sI "${URL}incidents")" "Flightrec-Incident-Scan: done; verified=$copies; total=$copies" \
  "the scan ends having verified every file"
written=$(curl -s "${URL}incidents" | python3 -c "import json, sys
print(sum(1 for i in json.load(sys.stdin) if i['status'] == 'written'))")
expect_eq "$written" "$((copies - 1))" "every valid copy is indexed"
if [ -e "$oldest.corrupt" ] && [ ! -e "$oldest" ]; then pass "the corrupt file is quarantined"; else fail "the corrupt file is not quarantined"; fi
metrics=$(curl -s "${URL}metrics")
expect_contains "$metrics" "flightrec_incidents_scan_pending 0" "/metrics: nothing pending"
expect_contains "$metrics" "flightrec_incidents_quarantined_total 1" "/metrics counts the quarantined file"
expect_contains "$(cat "$WORK/daemon.log")" "msg=\"incident scan finished\" files=$copies verified=$copies" \
  "the log says when the scan ended, with its counts"
stop_daemon
expect_eq "$STOP_STATUS" 0 "the daemon stops cleanly"
finish
