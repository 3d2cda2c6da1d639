#!/usr/bin/env bash
# Bursts of incidents: one Alertmanager notification of 24, 100 and 300 alerts (one per task; not
# one per pod, since a `pod` label scopes an alert to the node that runs that pod), a
# real Alertmanager delivering 300 at once, and 10,000 rules firing on one frame. Every alert
# answered "captured" is written, every other one is answered as not captured (with a 503, so the
# sender re-sends it) and a re-send records it; the drop warnings are a bounded number of lines
# that name the rules and count them.
source "$(dirname "$0")/lib.sh"

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

cat >"$WORK/flightrec.yaml" <<YAML
incidents:
  dir: $WORK/incidents
  max_count: 5000
  alerts:
    pre: 1s
    post: 1s
processes:
  enabled: false
YAML
start_daemon --config.file="$WORK/flightrec.yaml"
sleep 2  # the ring holds the alerts' windows (they started 2 s before they are sent)

# notify NAME COUNT: one Alertmanager webhook notification (version 4, as notify/webhook sends it)
# of COUNT firing alerts NAME{task="NAME-i"}, each with its own fingerprint, started 2 s ago; prints
# the HTTP status on the first line and the answer after it. The payload is kept for a re-send.
notify() {
  python3 - "$1" "$2" >"$WORK/$1.json" <<'PY'
import datetime, hashlib, json, sys
name, count = sys.argv[1], int(sys.argv[2])
started = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=2))
starts_at = started.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
alerts = [{"status": "firing",
           "labels": {"alertname": name, "task": f"{name}-{i}", "severity": "critical"},
           "annotations": {"summary": f"task {name}-{i} is crash-looping"},
           "startsAt": starts_at, "endsAt": "0001-01-01T00:00:00Z",
           "generatorURL": "http://prometheus:9090/graph",
           "fingerprint": hashlib.sha256(f"{name}-{i}".encode()).hexdigest()[:16]}
          for i in range(count)]
print(json.dumps({"version": "4", "status": "firing", "receiver": "flightrec",
                  "groupKey": "{}:{alertname=\"" + name + "\"}", "truncatedAlerts": 0,
                  "groupLabels": {"alertname": name}, "commonLabels": {"alertname": name},
                  "commonAnnotations": {}, "externalURL": "http://alertmanager:9093",
                  "alerts": alerts}))
PY
  resend "$1"
}
# resend NAME: the notification notify NAME made, posted again.
resend() {
  curl -s -w '\n%{http_code}' -X POST --data @"$WORK/$1.json" "${URL}-/trigger/alertmanager" |
    tac
}

# answer_field ANSWER FIELD: a number from the JSON answer (after the status line).
answer_field() { tail -n +2 <<<"$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['$2'])"; }
# answered_fingerprints ANSWER OUTCOME: the alerts (fingerprints) the answer gives OUTCOME, sorted.
answered_fingerprints() {
  tail -n +2 <<<"$1" | python3 -c "
import json, sys
print('\n'.join(sorted(a['fingerprint'] for a in json.load(sys.stdin).get('outcomes', []) if a['outcome'] == '$2')))"
}

# expect_same ACTUAL EXPECTED WHAT: two sorted lists of fingerprints, one a line; a failure says
# how many each has and how many of the expected ones are missing, not every fingerprint.
expect_same() {
  if [ "$1" = "$2" ]; then
    pass "$3"
  else
    fail "$3: got $(grep -c . <<<"$1" || true), want $(grep -c . <<<"$2" || true)," \
      "$(comm -13 <(echo "$1") <(echo "$2") | grep -c . || true) of those wanted missing"
  fi
}

# incidents_of NAME: the fingerprints of the written incidents of alert NAME, sorted, repeats kept.
incidents_of() {
  curl -s "${URL}incidents" | python3 -c "
import json, sys
print('\n'.join(sorted(i['details']['alert.fingerprint'] for i in json.load(sys.stdin)
      if i.get('rule') == 'alert' and i['status'] == 'written'
      and i['details'].get('alert.label.alertname') == '$1')))"
}
# wait_incidents NAME COUNT: up to 30 s for COUNT written incidents of NAME.
wait_incidents() {
  for _ in $(seq 300); do
    [ "$(incidents_of "$1" | grep -c . || true)" -ge "$2" ] && return 0
    sleep 0.1
  done
  return 0
}

# --- 24 and 100 alerts: each one captured, each one written, a re-send makes no second incident.
for count in 24 100; do
  name="PodCrash$count"
  answer=$(notify "$name" "$count")
  expect_eq "$(head -1 <<<"$answer")" 200 "$count alerts in one notification: 200"
  expect_eq "$(answer_field "$answer" captured)" "$count" "all $count are answered captured"
  expect_eq "$(answered_fingerprints "$answer" captured | grep -c .)" "$count" \
    "the answer gives each alert its outcome"
  wait_incidents "$name" "$count"
  expect_same "$(incidents_of "$name")" "$(answered_fingerprints "$answer" captured)" \
    "every alert answered captured is written, once"
  again=$(resend "$name")
  expect_eq "$(answer_field "$again" duplicate)" "$count" "a re-send: $count duplicates"
  sleep 1
  expect_eq "$(incidents_of "$name" | grep -c .)" "$count" "and no second incident"
done

# --- 300 alerts: more than can wait to be written at once. The ones not captured are answered
# 503 (Alertmanager re-sends on 5xx), never called captured, and a re-send records them.
name=PodCrash300
answer=$(notify "$name" 300)
captured=$(answer_field "$answer" captured)
dropped=$(answer_field "$answer" dropped)
expect_eq "$(head -1 <<<"$answer")" 503 "300 alerts in one notification: 503, so that the sender re-sends"
expect_eq "$((captured + dropped))" 300 "each of the 300 is captured or dropped"
if [ "$dropped" -gt 0 ]; then pass "$dropped alerts are answered dropped"; else fail "none dropped"; fi
wait_incidents "$name" "$captured"
sleep 1
expect_same "$(incidents_of "$name")" "$(answered_fingerprints "$answer" captured)" \
  "exactly the alerts answered captured are written"
missing=$(answered_fingerprints "$answer" dropped)
for _ in $(seq 30); do  # as Alertmanager retries: until it is answered 2xx
  again=$(resend "$name")
  [ "$(head -1 <<<"$again")" = 200 ] && break
  sleep 1
done
expect_eq "$(head -1 <<<"$again")" 200 "a re-send, once they are written, is answered 200"
expect_same "$(answered_fingerprints "$again" captured)" "$missing" "it captures exactly the dropped ones"
wait_incidents "$name" 300
expect_eq "$(incidents_of "$name" | uniq | grep -c .)" 300 "all 300 tasks are recorded"
expect_eq "$(incidents_of "$name" | grep -c .)" 300 "each once"
alert_drop_lines=$(grep -c 'alert not captured' "$WORK/daemon.log" || true)
if [ "$alert_drop_lines" -ge 1 ] && [ "$alert_drop_lines" -le 3 ]; then
  pass "the dropped alerts are logged in $alert_drop_lines lines"
else
  fail "$alert_drop_lines log lines for the dropped alerts: $(grep 'alert not captured' "$WORK/daemon.log" | head -3)"
fi

# --- A real Alertmanager delivers 300 alerts of one group in one notification, sees the 503 and
# retries until every alert is recorded.
am_port=$(free_port)
cat >"$WORK/alertmanager.yml" <<YAML
route:
  receiver: flightrec
  group_by: [alertname]
  # Long enough for Alertmanager to group all 300 into its first notification (with 1 s it sent
  # the first 77 to 121 and the rest only group_interval later).
  group_wait: 10s
  group_interval: 5m
  repeat_interval: 1h
receivers:
  - name: flightrec
    webhook_configs:
      - url: ${URL}-/trigger/alertmanager
YAML
prometheus-alertmanager --config.file="$WORK/alertmanager.yml" --storage.path="$WORK/am" \
  --web.listen-address="127.0.0.1:$am_port" --cluster.listen-address= --log.level=warn \
  2>"$WORK/alertmanager.log" &
AM_PID=$!
trap 'kill "$AM_PID" 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$am_port/-/ready" >/dev/null && break
  sleep 0.1
done
python3 - <<'PY' >"$WORK/am_alerts.json"
import datetime, json
now = datetime.datetime.now(datetime.timezone.utc)
at = lambda s: (now + datetime.timedelta(seconds=s)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
print(json.dumps([{"labels": {"alertname": "NodeBurst", "task": f"burst-{i}"},
                   "annotations": {"summary": "burst"}, "startsAt": at(-2), "endsAt": at(3600),
                   "generatorURL": "http://prometheus:9090/graph"} for i in range(300)]))
PY
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
  --data @"$WORK/am_alerts.json" "http://127.0.0.1:$am_port/api/v2/alerts")" 200 \
  "Alertmanager takes 300 alerts"
for _ in $(seq 600); do
  [ "$(incidents_of NodeBurst | grep -c . || true)" -ge 300 ] && break
  sleep 0.1
done
expect_eq "$(incidents_of NodeBurst | uniq | grep -c .)" 300 "Alertmanager's 300 alerts are all recorded"
expect_eq "$(incidents_of NodeBurst | grep -c .)" 300 "each once"
# Each attempt is a request; a notification fails only when its retries run out.
am_metric() {
  curl -s "http://127.0.0.1:$am_port/metrics" |
    awk -v name="$1" '$1 == name "{integration=\"webhook\"}" { print $2 }'
}
refused=$(am_metric alertmanager_notification_requests_failed_total)
echo "figure: Alertmanager made $(am_metric alertmanager_notification_requests_total) requests," \
  "$refused of them answered 503"
if [ "${refused:-0}" -ge 1 ]; then
  pass "Alertmanager saw the 503 and retried"
else
  fail "Alertmanager saw no failed request: nothing was retried"
fi
expect_eq "$(am_metric alertmanager_notifications_failed_total)" 0 "and its notification succeeded in the end"
kill "$AM_PID" 2>/dev/null || true
stop_daemon
expect_eq "$STOP_STATUS" 0 "the daemon exits 0"

# --- 10,000 rules firing on the same frame: the writer keeps 16 waiting and drops the rest; the
# warning is a few lines that count the drops and name the first rules, not one line per drop.
python3 - "$WORK" <<'PY' >"$WORK/rules.yaml"
import sys
print(f"incidents:\n  dir: {sys.argv[1]}/incidents-rules\nprocesses:\n  enabled: false\ntriggers:")
for i in range(10000):
    print(f'  - {{name: r{i:05d}, signal: memory_used_bytes, op: ">", value: 0, pre: 1s, '
          f'post: 100ms, cooldown: 1h}}')
PY
start_daemon --config.file="$WORK/rules.yaml"
log_drops() { grep 'incident dropped' "$WORK/daemon.log" || true; }
metric() { curl -s "${URL}metrics" | awk -v name="$1" '$1 == name { print $2 }'; }
# The writer drops at once; the count of the drops after the first is written within 10 s.
for _ in $(seq 300); do
  dropped=$(metric flightrec_incidents_dropped_total)
  logged=$(log_drops | sed -n 's/.* count=\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
  [ "${dropped:-0}" -gt 9000 ] && [ "$logged" = "$dropped" ] && break
  sleep 0.1
done
lines=$(log_drops | grep -c . || true)
echo "figure: $dropped incidents dropped, $lines log lines"
if [ "$lines" -ge 1 ] && [ "$lines" -le 3 ]; then
  pass "$dropped drops are logged in $lines lines"
else
  fail "$lines log lines for $dropped drops"
fi
expect_eq "$logged" "$dropped" "the lines' counts add up to flightrec_incidents_dropped_total"
expect_contains "$(log_drops | tail -1)" "names=" "the lines name the rules"
stop_daemon
expect_eq "$STOP_STATUS" 0 "the daemon exits 0"
finish
