#!/usr/bin/env bash
# An alert whose incident could not be written is forgotten once the write has failed, as one that
# found no place to wait is (docs/TRIGGERS.md, "One incident per episode"): /incidents still lists
# the failed incident, and once the store can be written again the sender's re-send of the same
# notification captures the alert and its incident is written. The store fails for real: a tmpfs
# remounted read-only (EROFS, as a file system the kernel turned read-only after errors).
source "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ]; then
  echo "skipped: remounting a tmpfs read-only needs root"
  exit 77
fi
store="$WORK/store"
mkdir "$store"
mount -t tmpfs -o size=16m tmpfs "$store"
trap 'umount "$store" 2>/dev/null || true; cleanup' EXIT

cat >"$WORK/flightrec.yaml" <<YAML
incidents:
  dir: $store/incidents
  alerts:
    pre: 1s
    post: 1s
YAML
start_daemon --config.file="$WORK/flightrec.yaml"
sleep 2  # a ring holding the window

# Began 3 s ago: its window (1 s either side) has passed, so its incident is written at once.
starts=$(rfc3339 $(($(date +%s%N) - 3000000000)))
cat >"$WORK/notification.json" <<JSON
{"version": "4", "status": "firing", "receiver": "flightrec", "groupKey": "{}:{alertname=\"DiskErrors\"}",
 "alerts": [{"status": "firing", "labels": {"alertname": "DiskErrors", "severity": "critical"},
             "annotations": {"summary": "the store went read-only"}, "startsAt": "$starts",
             "endsAt": "0001-01-01T00:00:00Z", "generatorURL": "http://prometheus/graph",
             "fingerprint": "e2e-ro"}]}
JSON
notify() { curl -s -X POST --data @"$WORK/notification.json" "${URL}-/trigger/alertmanager"; }
metric() { curl -s "${URL}metrics" | awk -v name="$1" '$1 == name { print $2 }'; }

# incidents: "status cause" of each incident of the alert, newest first.
incidents() {
  curl -s "${URL}incidents" | python3 -c '
import json, sys
for i in json.load(sys.stdin):
    if i.get("details", {}).get("alert.fingerprint") == "e2e-ro":
        print(i["status"], i.get("cause", "-"))'
}

# wait_for WHAT: waits up to 10 s for `incidents` to print WHAT; prints what it printed last.
wait_for() {
  local listed=""
  for _ in $(seq 100); do
    listed=$(incidents)
    [ "$listed" = "$1" ] && break
    sleep 0.1
  done
  echo "$listed"
}

mount -o remount,ro "$store"
expect_contains "$(notify)" '"captured":1' "a firing alert is captured while the store is read-only"
expect_eq "$(wait_for "failed read_only")" "failed read_only" "its incident fails to be written (read_only)"
episodes=""
for _ in $(seq 100); do
  episodes=$(metric flightrec_alert_episodes)
  [ "$episodes" = 0 ] && break
  sleep 0.1
done
expect_eq "$episodes" 0 "the episode whose write failed is no longer remembered"

mount -o remount,rw "$store"
expect_contains "$(notify)" '"captured":1' "once the store is writable, the re-sent notification captures it again"
expect_eq "$(wait_for "written -
failed read_only")" "written -
failed read_only" "its incident is written, and the failed one is still listed as failed"
file=$(find "$store/incidents" -name '*.flightrec' | head -1)
if [ -n "$file" ] && "$FLIGHTREC" dump "$file" --format=csv >/dev/null; then
  pass "the written file reads"
else
  fail "no readable incident file in $store/incidents"
fi
expect_contains "$(notify)" '"duplicate":1' "a further re-send is a duplicate"
expect_eq "$(metric 'flightrec_incident_write_failures_total{cause="read_only"}')" 1 \
  "one write failure counted"
stop_daemon
expect_eq "$STOP_STATUS" 0 "daemon exits 0"
finish
