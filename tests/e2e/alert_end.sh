#!/usr/bin/env bash
# An alert's end that arrives after its incident was written (docs/TRIGGERS.md, "Alertmanager and
# Grafana"): the resolved notification rewrites the file with alert.status, alert.ends_at and the
# window extended up to endsAt within incidents.alerts.max_extension, with the frames the ring still
# holds; /incidents, `flightrec incidents` and the file agree. An end for an incident retention has
# deleted is end_too_late; after a restart the end is recorded without frames (the new ring does
# not continue the stored recording); a reload changes incidents.alerts.*. `flightrec incidents`
# (the table and ID in full) and `flightrec replay --batch` show the alert's labels and
# annotations. Payloads are posted with curl, as Alertmanager sends them.
source "$(dirname "$0")/lib.sh"

cat >"$WORK/flightrec.yaml" <<YAML
incidents:
  dir: $WORK/incidents
  max_count: 2
  alerts:
    pre: 2s
    post: 2s
    max_extension: 3s
YAML
start_daemon --config.file="$WORK/flightrec.yaml"
sleep 3  # a ring holding the pre window

# notify FINGERPRINT STATUS STARTS_NS [ENDS_NS]: posts one alert; prints the answer.
notify() {
  local ends='0001-01-01T00:00:00Z'
  [ -n "${4:-}" ] && ends=$(rfc3339 "$4")
  curl -s -X POST "${URL}-/trigger/alertmanager" --data @- <<JSON
{"version": "4", "status": "$2", "receiver": "flightrec", "groupKey": "{}:{alertname=\"E2E\"}",
 "alerts": [{"status": "$2", "labels": {"alertname": "E2E", "case": "$1", "severity": "warning"},
             "annotations": {"summary": "alert end e2e", "description": "line one\nline two"},
             "startsAt": "$(rfc3339 "$3")",
             "endsAt": "$ends", "generatorURL": "http://prometheus/graph", "fingerprint": "$1"}]}
JSON
}

# incident FINGERPRINT: "id bytes window_to alert.status alert.ends_at alert.window_held_to" of its
# incident as /incidents lists it, or nothing.
incident() {
  curl -s "${URL}incidents" | python3 -c '
import json, sys
for i in json.load(sys.stdin):
    d = i.get("details", {})
    if i["status"] == "written" and d.get("alert.fingerprint") == sys.argv[1]:
        print(i["id"], i["bytes"], i["window"]["to"], d.get("alert.status", "-"),
              d.get("alert.ends_at", "-"), d.get("alert.window_held_to", "-"))' "$1"
}

# wait_for FINGERPRINT WORD: waits up to 10 s for its incident's line to hold WORD; prints it.
wait_for() {
  local line=""
  for _ in $(seq 100); do
    line=$(incident "$1")
    grep -qw -- "$2" <<<"$line" && break
    sleep 0.1
  done
  echo "$line"
}

# last_frame_ms FILE: the time of the file's last system frame, Unix ms, from its CSV.
last_frame_ms() {
  "$FLIGHTREC" dump "$1" --format=csv | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
print(round(float(rows[-1][0]) * 1000), len(rows) - 1)'
}

metric() { curl -s "${URL}metrics" | awk -v name="$1" '$1 == name { print $2 }'; }

# The main case: written at startsAt + post, resolved 5 s later, 6 s after startsAt.
starts_ns=$(($(date +%s%N) - 1000000000))
expect_contains "$(notify main firing "$starts_ns")" '"captured":1' "a firing alert captures"
read -r id bytes window_to status _ _ <<<"$(wait_for main firing)"
expect_eq "${status:-none}" firing "its incident is written before the end is known"
file="$WORK/incidents/$id.flightrec"
read -r stored_last_ms stored_rows <<<"$(last_frame_ms "$file")"
sleep 4
ends_ns=$(date +%s%N)
answer=$(notify main resolved "$starts_ns" "$ends_ns")
expect_contains "$answer" '"end_queued":1' "the late end is queued for the writer"
read -r _ new_bytes new_window_to status ends_at held_to <<<"$(wait_for main resolved)"
expect_eq "${status:-none}" resolved "/incidents shows the alert resolved"
expect_eq "${ends_at:-none}" "$(rfc3339 "$ends_ns")" "and its end (alert.ends_at)"
# endsAt is ~5 s past the stored end: the window grows by max_extension (3 s), all of it held.
wanted_to=$(rfc3339 $((starts_ns + 5000000000)))
expect_eq "${new_window_to:-none}" "$wanted_to" "the window is extended by max_extension"
expect_eq "${held_to:-none}" "$wanted_to" "and the ring held all of it (alert.window_held_to)"
read -r new_last_ms new_rows <<<"$(last_frame_ms "$file")"
wanted_ms=$(((starts_ns + 5000000000) / 1000000))
if [ "$new_last_ms" -le "$wanted_ms" ] && [ "$new_last_ms" -ge $((wanted_ms - 50)) ] &&
  [ "$new_rows" -gt $((stored_rows + 500)) ]; then
  pass "the file's frames now reach the new window end ($stored_rows frames to $new_rows, last at $new_last_ms ms, wanted $wanted_ms)"
else
  fail "frames: stored $stored_rows to $stored_last_ms ms, now $new_rows to $new_last_ms ms, wanted up to $wanted_ms"
fi
expect_eq "$(stat -c %s "$file")" "$new_bytes" "/incidents lists the new file's size ($bytes -> $new_bytes bytes)"
listing=$("$FLIGHTREC" incidents --dir="$WORK/incidents")
expect_contains "$listing" "$new_bytes" "flightrec incidents reads the rewritten file"
expect_contains "$listing" "written  E2E (warning): alert end e2e" \
  "its table names the alert by alertname, severity and summary"
shown=$("$FLIGHTREC" incidents "$id" --dir="$WORK/incidents")
for line in "alert                         E2E (warning): alert end e2e" \
  "alert.status                  resolved" \
  "alert.label.case              main" \
  "alert.label.severity          warning" \
  'alert.annotation.description  line one\x0aline two' \
  "alert.generator_url           http://prometheus/graph"; do
  expect_contains "$shown" "$line" "flightrec incidents ID shows '$line'"
done
batch=$("$FLIGHTREC" replay "$file" --batch)
for line in "trigger   alert: E2E (warning): alert end e2e at" \
  'labels    {alertname="E2E",case="main",severity="warning"}' \
  'annotation description: line one\x0aline two' \
  "annotation summary: alert end e2e" \
  "generator http://prometheus/graph"; do
  expect_contains "$batch" "$line" "replay --batch shows '$line'"
done
expect_eq "$(find "$WORK/incidents" -name '*.tmp.*' | wc -l)" 0 "no temporary file is left"
expect_eq "$(metric 'flightrec_alerts_total{outcome="end_recorded"}')" 1 "counted as end_recorded"
expect_contains "$(notify main resolved "$starts_ns" "$ends_ns")" '"duplicate":1' \
  "a re-sent end is a duplicate"

# Retention (max_count 2): "gone" is the oldest; a third incident deletes it, then its end comes.
gone_starts=$(($(date +%s%N) - 60000000000))
notify gone firing "$gone_starts" >/dev/null
wait_for gone firing >/dev/null
later_starts=$(($(date +%s%N) - 10000000000))
notify later firing "$later_starts" >/dev/null
for _ in $(seq 100); do [ -z "$(incident gone)" ] && break; sleep 0.1; done
expect_eq "$(incident gone)" "" "retention deleted the oldest incident"
expect_contains "$(notify gone resolved "$gone_starts" "$(date +%s%N)")" \
  '"end_queued":1' "its end is queued"
for _ in $(seq 50); do
  [ "$(metric 'flightrec_alerts_total{outcome="end_too_late"}')" = 1 ] && break
  sleep 0.1
done
expect_eq "$(metric 'flightrec_alerts_total{outcome="end_too_late"}')" 1 \
  "an end for an incident no longer stored is end_too_late"

# A restart: the stored episode is found on disk; the end is recorded, no frames are appended.
read -r later_id later_bytes later_to _ _ _ <<<"$(incident later)"
stop_daemon
start_daemon --config.file="$WORK/flightrec.yaml"
wait_incident_scan
read -r later_rows_before <<<"$(last_frame_ms "$WORK/incidents/$later_id.flightrec" | cut -d' ' -f2)"
expect_contains "$(notify later resolved "$later_starts" "$(date +%s%N)")" '"end_queued":1' \
  "after a restart, the end of a stored episode is queued"
read -r _ _ _ status _ held_to <<<"$(wait_for later resolved)"
expect_eq "${status:-none}" resolved "and recorded"
expect_eq "${held_to:-none}" "$later_to" "held only to the stored end: the new ring does not continue it"
expect_eq "$(last_frame_ms "$WORK/incidents/$later_id.flightrec" | cut -d' ' -f2)" \
  "$later_rows_before" "no frames appended"

# A resolved alert without its end (Go's zero time): it ended by the time flightrec was told.
told_s=$(date +%s)
expect_contains "$(notify noend resolved $(($(date +%s%N) - 3000000000)))" '"captured":1' \
  "a resolved alert seen first is captured"
read -r _ _ _ status ends_at _ <<<"$(wait_for noend resolved)"
ends_s=$(date -d "${ends_at:-1970-01-01T00:00:00Z}" +%s)
if [ $((ends_s - told_s)) -ge 0 ] && [ $((ends_s - told_s)) -le 2 ]; then
  pass "its missing end is taken as the notification's arrival ($ends_at)"
else
  fail "its end is $ends_at, want the notification's arrival (about $(date -u -d "@$told_s" +%FT%TZ))"
fi

# incidents.alerts.* change on a reload: a filter that leaves every alert out.
sed -i 's/^  alerts:$/  alerts:\n    match: [\x27{case="none"}\x27]/' "$WORK/flightrec.yaml"
kill -HUP "$DAEMON_PID"
for _ in $(seq 50); do grep -q 'msg="configuration reloaded"' "$WORK/daemon.log" && break; sleep 0.1; done
expect_contains "$(grep 'msg="configuration reloaded"' "$WORK/daemon.log")" incidents.alerts.match \
  "a reload applies incidents.alerts.match"
expect_contains "$(notify reloaded firing "$(date +%s%N)")" '"filtered":1' \
  "and the next notification is filtered by it"
finish
