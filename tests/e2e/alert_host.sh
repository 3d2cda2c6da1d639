#!/usr/bin/env bash
# One shared config for every node (docs/TRIGGERS.md, "Alertmanager and Grafana"): an
# incidents.alerts.match naming this host through ${NODE_NAME}, as the Kubernetes DaemonSet sets
# it, captures the alerts about this host and filters those about others, a host name's dots
# matching only dots. Without the variable the daemon refuses to start, naming the key and the
# variable. An alert whose window the ring never held says so (alert.window_held_from: none).
source "$(dirname "$0")/lib.sh"

cat >"$WORK/flightrec.yaml" <<YAML
incidents:
  dir: $WORK/incidents
  alerts:
    pre: 2s
    post: 1s
    match: ['{instance=~"\${NODE_NAME}(:[0-9]+)?"}']
YAML

unset NODE_NAME
start_refused --config.file="$WORK/flightrec.yaml"
expect_eq "$START_STATUS" 1 "without NODE_NAME the daemon does not start: exit 1"
expect_contains "$START_OUTPUT" 'incidents.alerts.match' "the error names the key"
expect_contains "$START_OUTPUT" '${NODE_NAME} is not set' "and the variable"
echo "  ($START_OUTPUT)"

export NODE_NAME=node-1.example.com
start_daemon --config.file="$WORK/flightrec.yaml"
sleep 1

# alert FINGERPRINT INSTANCE STARTS_NS: one firing alert of a notification's list.
alert() {
  cat <<JSON
{"status": "firing", "labels": {"alertname": "E2EHost", "instance": "$2"},
 "annotations": {"summary": "alert host e2e"}, "startsAt": "$(rfc3339 "$3")",
 "endsAt": "0001-01-01T00:00:00Z", "generatorURL": "http://prometheus/graph", "fingerprint": "$1"}
JSON
}

# notify ALERT...: posts one notification holding the alerts; prints the answer.
notify() {
  local alerts
  alerts=$(IFS=,; echo "$*")
  curl -s -X POST "${URL}-/trigger/alertmanager" --data @- <<JSON
{"version": "4", "status": "firing", "receiver": "flightrec", "groupKey": "{}:{alertname=\"E2EHost\"}",
 "alerts": [$alerts]}
JSON
}

# held_from FINGERPRINT: alert.window_held_from of its written incident, waiting up to 10 s.
held_from() {
  for _ in $(seq 100); do
    local value
    value=$(curl -s "${URL}incidents" | python3 -c '
import json, sys
for i in json.load(sys.stdin):
    d = i.get("details", {})
    if i["status"] == "written" and d.get("alert.fingerprint") == sys.argv[1]:
        print(d.get("alert.window_held_from", "-"))' "$1")
    [ -n "$value" ] && { echo "$value"; return; }
    sleep 0.1
  done
}

now=$(date +%s%N)
answer=$(notify "$(alert here node-1.example.com:9100 "$now")" \
  "$(alert bare node-1.example.com "$now")" \
  "$(alert other node-2.example.com:9100 "$now")" \
  "$(alert dots node-1Xexample.com:9100 "$now")")
expect_contains "$answer" '"captured":2' "alerts about this host capture, with or without a port"
expect_contains "$answer" '"filtered":2' "another host's alert is filtered, and a dot matches only a dot"

here=$(held_from here)
if [ -n "$here" ] && [ "$here" != none ]; then
  pass "this host's incident holds its window from $here"
else
  fail "this host's incident: alert.window_held_from '$here'"
fi

# An alert that began an hour ago: its window ended long before this daemon started.
expect_contains "$(notify "$(alert old node-1.example.com:9100 $((now - 3600000000000)))")" \
  '"captured":1' "an alert about this host from an hour ago captures"
expect_eq "$(held_from old)" none "and its incident says the ring held none of its window"
finish
