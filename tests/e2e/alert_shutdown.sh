#!/usr/bin/env bash
# A SIGTERM while incidents wait for their post window (docs/TRIGGERS.md, "Shutdown"): an alert
# answered "captured" and a manual incident are written before the daemon exits, each with the
# post window recorded so far and a capture.cut_short detail saying how much of it; after a restart
# /incidents and `flightrec incidents` list them as valid files, and the alert re-sent by
# Alertmanager is a duplicate of its stored episode.
source "$(dirname "$0")/lib.sh"

cat >"$WORK/flightrec.yaml" <<YAML
incidents:
  dir: $WORK/incidents
  alerts:
    pre: 2s
    post: 30s
YAML
start_daemon --config.file="$WORK/flightrec.yaml"
sleep 2 # a ring holding the pre window

# notify: posts the alert; prints the answer.
starts_ns=$(date +%s%N)
notify() {
  curl -s -X POST "${URL}-/trigger/alertmanager" --data @- <<JSON
{"version": "4", "status": "firing", "receiver": "flightrec", "groupKey": "{}:{alertname=\"E2E\"}",
 "alerts": [{"status": "firing", "labels": {"alertname": "E2E", "severity": "warning"},
             "annotations": {"summary": "shutdown e2e"}, "startsAt": "$(rfc3339 "$starts_ns")",
             "endsAt": "0001-01-01T00:00:00Z", "generatorURL": "http://prometheus/graph",
             "fingerprint": "shutdown"}]}
JSON
}
expect_contains "$(notify)" '"captured":1' "the alert is captured"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' -X POST "${URL}-/trigger?reason=shutdown")" 202 \
  "a manual incident is requested"
sleep 1
stop_daemon
expect_eq "$STOP_STATUS" 0 "SIGTERM stops the daemon cleanly"
if [ "$STOP_MS" -lt 10000 ]; then
  pass "the stop took $STOP_MS ms, well before the 30 s post window would have ended"
else
  fail "the stop took $STOP_MS ms"
fi
expect_contains "$(cat "$WORK/daemon.log")" 'msg="incidents cut short by shutdown' \
  "the log says incidents were cut short"

mv "$WORK/daemon.log" "$WORK/daemon.first.log"
start_daemon --config.file="$WORK/flightrec.yaml"
wait_incident_scan 20
# "status rule cut_short window_seconds" per incident, oldest first.
listed=$(curl -s "${URL}incidents" | python3 -c '
import datetime, json, sys
def s(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()
for i in reversed(json.load(sys.stdin)):
    print(i["status"], i["rule"], i["details"].get("capture.cut_short", "-").replace(" ", "_"),
          round(s(i["window"]["to"]) - s(i["fired_at"]), 1))')
expect_eq "$(wc -l <<<"$listed")" 2 "/incidents lists both incidents after the restart"
read -r status rule cut post_s <<<"$(grep ' alert ' <<<"$listed")"
expect_eq "${status:-none} ${rule:-none}" "written alert" "the alert's incident was written"
expect_contains "${cut:-none}" "post_window_cut_short_by_shutdown:_" "it says it was cut short"
expect_contains "${cut:-none}" "_of_30s" "and of which post window"
if python3 -c "import sys; sys.exit(not 0.5 <= float('${post_s:-0}') <= 8)"; then
  pass "its window ends at the last frame recorded, ${post_s} s after startsAt"
else
  fail "its window ends ${post_s:-?} s after startsAt"
fi
read -r status rule cut _ <<<"$(grep ' manual ' <<<"$listed")"
expect_eq "${status:-none} ${rule:-none}" "written manual" "the manual incident was written"
expect_contains "${cut:-none}" "_of_5s" "and says how much of its 5 s post window it has"

listing=$("$FLIGHTREC" incidents --dir="$WORK/incidents")
expect_eq "$(awk '$7 == "written"' <<<"$listing" | wc -l)" 2 \
  "flightrec incidents reads both files as written"
for file in "$WORK"/incidents/*.flightrec; do
  rows=$("$FLIGHTREC" dump "$file" --format=csv | wc -l)
  if [ "$rows" -gt 200 ]; then pass "$(basename "$file") holds $rows frames"; else fail "$file: $rows rows"; fi
done
expect_contains "$(notify)" '"duplicate":1' "the alert re-sent after the restart is a duplicate"

stop_daemon
finish
