#!/usr/bin/env bash
# Alerts whose startsAt is far in the future (docs/TRIGGERS.md, "Alertmanager and Grafana"): 300
# of them, startsAt in 2100, take the 256 places the writer holds for alerts, but each window is
# centred on the notification's receipt, so the places are free again a post window later and a
# normal alert is captured then. The log names the alerts, rate-limited; the incident keeps the
# sender's startsAt and is still found as the same episode.
source "$(dirname "$0")/lib.sh"

cat >"$WORK/flightrec.yaml" <<YAML
incidents:
  dir: $WORK/incidents
  max_count: 1000
  alerts:
    pre: 1s
    post: 1s
YAML
start_daemon --config.file="$WORK/flightrec.yaml"

# notify FIRST COUNT STARTS: one notification of COUNT alerts, fingerprints fFIRST..; prints
# "HTTP_STATUS ANSWER".
notify() {
  python3 - "$1" "$2" "$3" >"$WORK/payload.json" <<'PY'
import json, sys
first, count, starts = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
print(json.dumps({"version": "4", "status": "firing", "receiver": "flightrec", "groupKey": "g",
                  "alerts": [{"status": "firing", "startsAt": starts,
                              "endsAt": "0001-01-01T00:00:00Z", "fingerprint": "f%d" % i,
                              "generatorURL": "http://prometheus/graph", "annotations": {},
                              "labels": {"alertname": "Future", "n": str(i)}}
                             for i in range(first, first + count)]}))
PY
  curl -s -w '%{http_code} ' -o "$WORK/answer.json" -X POST "${URL}-/trigger/alertmanager" \
    --data @"$WORK/payload.json"
  cat "$WORK/answer.json"
}

answer=$(notify 0 300 2100-01-01T00:00:00Z)
expect_contains "$answer" '503 {"alerts":300,"captured":256,' \
  "300 alerts starting in 2100 take the 256 places; the rest are answered 503"
# The warning's lines: "COUNT FIRST_NAME" each.
warnings() {
  grep "msg=\"alert startsAt more than 5m ahead of this host's clock: its window is centred on the notification's receipt\"" \
    "$WORK/daemon.log" | sed 's/.* count=\([0-9]*\) names="\(Future{n=\\"[0-9]*\\"}\).*/\1 \2/'
}
expect_eq "$(warnings)" '1 Future{n=\"0\"}' "the log names the first such alert at once"

# Each capture is written a post window (1 s) after its receipt: then a normal alert has a place.
now=$(rfc3339 "$(date +%s%N)")
begin=$(date +%s%N)
captured=""
for _ in $(seq 100); do
  answer=$(notify 1000 1 "$now")
  if grep -q '"captured":1' <<<"$answer"; then captured=yes && break; fi
  sleep 0.1
done
waited_ms=$((($(date +%s%N) - begin) / 1000000))
expect_eq "${captured:-no}" yes "a normal alert is captured $waited_ms ms later"

# One of the 2100 alerts: centred on its receipt, the sender's startsAt kept; a re-send is a
# duplicate of it.
read -r fired starts sent <<<"$(curl -s "${URL}incidents" | python3 -c '
import json, sys
for i in json.load(sys.stdin):
    d = i["details"]
    if d.get("alert.fingerprint") == "f0":
        print(i["fired_at"], d.get("alert.starts_at"), d.get("alert.sent_starts_at_ns"))')"
expect_eq "${fired:0:4}" "$(date -u +%Y)" "its incident fired at its receipt ($fired)"
expect_eq "${starts:-none} ${sent:-none}" "2100-01-01T00:00:00.000Z 4102444800000000000" \
  "and keeps the startsAt sent"
expect_contains "$(notify 0 1 2100-01-01T00:00:00Z)" '200 {"alerts":1,"captured":0,"duplicate":1' \
  "a re-send of it is a duplicate"

stop_daemon
expect_eq "$STOP_STATUS" 0 "the daemon exits 0"
expect_eq "$(warnings | tail -n +2)" '255 Future{n=\"1\"}' \
  "and the other 255 captured in one line, at the latest when the daemon stops"
finish
