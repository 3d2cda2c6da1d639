#!/usr/bin/env bash
# Alertmanager as a trigger source, with Debian's real prometheus and prometheus-alertmanager: a
# rule fires on a condition this test creates (a manual incident moves
# flightrec_manual_trigger_requests_total), Alertmanager delivers to POST /-/trigger/alertmanager,
# and the incident's window is centred on the alert's startsAt (when it went firing), reaching back
# before the condition began.
# Alertmanager's repeats (repeat_interval 2s) and a retried notification make no duplicate; the
# resolved notification records the end, and after a restart a re-sent one is still a duplicate
# (the episode is found among the stored incidents). First, the RUNBOOK's example rule and Alertmanager config
# pass promtool and amtool, so the docs cannot rot.
source "$(dirname "$0")/lib.sh"
DOCS="$E2E_DIR/../../docs"

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# The fenced block after the marker `<!-- e2e:NAME -->` in docs/RUNBOOK.md.
runbook_block() {
  awk -v marker="<!-- e2e:$1 -->" '
    $0 == marker { found = 1; next }
    found && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' "$DOCS/RUNBOOK.md"
}

runbook_block rules >"$WORK/runbook.rules.yml"
runbook_block alertmanager >"$WORK/runbook.alertmanager.yml"
check=$(promtool check rules "$WORK/runbook.rules.yml" 2>&1 || true)
expect_contains "$check" "SUCCESS: 1 rules found" "promtool check rules accepts the RUNBOOK's rule"
check=$(amtool check-config "$WORK/runbook.alertmanager.yml" 2>&1 || true)
expect_contains "$check" "SUCCESS" "amtool check-config accepts the RUNBOOK's Alertmanager config"
# Its routes: an alert worth a recording still pages, and a copy goes to flightrec.
routes=$(amtool config routes test --config.file="$WORK/runbook.alertmanager.yml" \
  alertname=NodeMemoryPressure capture=flightrec severity=critical 2>/dev/null || true)
expect_eq "$routes" "flightrec,oncall" "the RUNBOOK's route sends a capture alert to flightrec and on-call"
routes=$(amtool config routes test --config.file="$WORK/runbook.alertmanager.yml" \
  alertname=DiskFull severity=critical 2>/dev/null || true)
expect_eq "$routes" "oncall" "and any other alert to on-call only"

cat >"$WORK/flightrec.yaml" <<YAML
incidents:
  dir: $WORK/incidents
  alerts:
    match: ['{capture="flightrec"}']
    pre: 20s
    post: 30s
YAML
start_daemon --config.file="$WORK/flightrec.yaml"
target=${URL#http://}
target=${target%/}

am_port=$(free_port)
cat >"$WORK/alertmanager.yml" <<YAML
route:
  receiver: flightrec
  group_by: [alertname]
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 2s
receivers:
  - name: flightrec
    webhook_configs:
      - url: ${URL}-/trigger/alertmanager
        send_resolved: true
YAML
prometheus-alertmanager --config.file="$WORK/alertmanager.yml" --storage.path="$WORK/am" \
  --web.listen-address="127.0.0.1:$am_port" --cluster.listen-address= --log.level=warn \
  2>"$WORK/alertmanager.log" &
AM_PID=$!
trap 'kill "$AM_PID" 2>/dev/null || true; cleanup' EXIT

# The condition: a manual incident was requested in the last 15 s. Evaluated every second.
cat >"$WORK/rules.yml" <<'YAML'
groups:
  - name: e2e
    rules:
      - alert: ManualIncidentRequested
        expr: increase(flightrec_manual_trigger_requests_total{result="accepted"}[15s]) > 0
        for: 1s
        labels:
          capture: flightrec
          severity: critical
        annotations:
          summary: a manual incident was requested
YAML
cat >"$WORK/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
  evaluation_interval: 1s
rule_files: ["$WORK/rules.yml"]
alerting:
  alertmanagers:
    - static_configs:
        - targets: ["127.0.0.1:$am_port"]
scrape_configs:
  - job_name: flightrec
    static_configs:
      - targets: ["$target"]
YAML
start_prometheus_with "$WORK/prometheus.yml" "Prometheus scrapes flightrec: up == 1"

# The condition begins now.
condition_ns=$(date +%s%N)
curl -s -X POST "${URL}-/trigger?reason=e2e" >/dev/null

# alert incidents, as "id fired_at_ns window_from_ns status ends_at held_from count"
alert_incidents() {
  curl -s "${URL}incidents" | python3 -c '
import datetime, json, sys
def ns(text):
    t = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return int(t.timestamp()) * 10**9 + t.microsecond * 1000
rows = [i for i in json.load(sys.stdin) if i.get("rule") == "alert"]
for i in rows:
    d = i["details"]
    print(i["id"], i["status"], ns(i["fired_at"]), ns(i["window"]["from"]), d.get("alert.status", "-"),
          d.get("alert.ends_at", "-"), d.get("alert.window_held_from", "-"),
          d.get("alert.label.alertname", "-"), len(rows))'
}

metric() {
  curl -s "${URL}metrics" | awk -v name="$1" '$1 == name { print $2 }'
}

# The first notification: an alert incident is pending (listed once written, after post).
for _ in $(seq 300); do
  sent=$(metric 'flightrec_alerts_total{outcome="captured"}')
  [ "${sent:-0}" != 0 ] && break
  sleep 0.1
done
notified_ns=$(date +%s%N)
expect_eq "${sent:-0}" 1 "Alertmanager's notification captures one alert"

# A retry: Alertmanager re-sends a notification whose 2xx it did not see; here, the same payload
# again, as Alertmanager's own API shows the alert.
alert_json=$(curl -s "http://127.0.0.1:$am_port/api/v2/alerts" | python3 -c '
import json, sys
a = json.load(sys.stdin)[0]
print(json.dumps({"version": "4", "status": "firing", "receiver": "flightrec", "groupKey": "retry",
    "alerts": [{"status": "firing", "labels": a["labels"], "annotations": a["annotations"],
                "startsAt": a["startsAt"], "endsAt": "0001-01-01T00:00:00Z",
                "generatorURL": a["generatorURL"], "fingerprint": a["fingerprint"]}]}))')
retry_status=$(curl -s -o "$WORK/retry.out" -w '%{http_code}' -X POST --data "$alert_json" \
  "${URL}-/trigger/alertmanager")
expect_eq "$retry_status" 200 "a retried notification is answered 200"
expect_contains "$(cat "$WORK/retry.out")" '"duplicate":1' "and counted as a duplicate"

# Wait for the incident: startsAt + post (30 s), with the resolved notification before that.
row=""
for _ in $(seq 600); do
  row=$(alert_incidents | head -1)
  [ -n "$row" ] && break
  sleep 0.1
done
read -r id status fired_ns from_ns alert_status ends_at held_from alertname count <<<"$row"
expect_eq "${status:-none}" written "the alert incident is written"
expect_eq "$(curl -s "${URL}incidents" | python3 -c 'import json, sys
print(next((i["kind"] for i in json.load(sys.stdin) if i["id"] == sys.argv[1]), "-"))' "$id")" alert \
  "/incidents gives its kind, alert"
expect_eq "${alertname:-none}" ManualIncidentRequested "it names the alert"
expect_eq "${count:-0}" 1 "repeats (repeat_interval 2s) and the retry make one incident"
# Alertmanager's startsAt for the alert (Prometheus's: when it went firing, after `for:`), in ns.
starts_ns=$(python3 -c '
import json, sys
text = json.loads(sys.argv[1])["alerts"][0]["startsAt"].rstrip("Z")
whole, _, fraction = text.partition(".")
import datetime
t = datetime.datetime.strptime(whole, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc)
print(int(t.timestamp()) * 10**9 + int((fraction + "000000000")[:9]))' "$alert_json")
# fired_at is startsAt to the ms (not the notification's arrival), the window reaches pre (20 s)
# before it, and so before the condition this test began; the alert fired after the condition.
if [ -n "$row" ] && [ $(((fired_ns - starts_ns) / 1000000)) = 0 ] &&
  [ "$from_ns" = $((fired_ns - 20000000000)) ] && [ "$starts_ns" -ge "$condition_ns" ] &&
  [ "$from_ns" -lt "$condition_ns" ] && [ "$fired_ns" -le "$notified_ns" ]; then
  pass "the window is centred on startsAt and starts before the condition began"
else
  fail "fired_at $fired_ns, window from $from_ns; startsAt $starts_ns, condition began $condition_ns, notified $notified_ns"
fi
expect_eq "${alert_status:-none}" resolved "the resolved notification is recorded on the incident"
if [ "${ends_at:--}" != - ]; then pass "alert.ends_at: $ends_at"; else fail "no alert.ends_at"; fi
if [ "${held_from:--}" != - ]; then pass "alert.window_held_from: $held_from"; else fail "no alert.window_held_from"; fi

notifications=$(metric 'flightrec_alert_notifications_total{source="alertmanager",result="accepted"}')
duplicates=$(metric 'flightrec_alerts_total{outcome="duplicate"}')
echo "figure: notifications accepted $notifications (Alertmanager's and the retry), duplicate alerts $duplicates, incidents ${count:-0}"
if [ "${notifications:-0}" -ge 5 ]; then pass "Alertmanager re-sent (firing, repeats, resolved)"; else fail "only ${notifications:-0} notifications"; fi

# Time from a notification to its 2xx: 50 retries of the same alert, the median and the slowest.
for _ in $(seq 50); do
  curl -s -o /dev/null -w '%{time_total}\n' -X POST --data "$alert_json" "${URL}-/trigger/alertmanager"
done | sort -n >"$WORK/latency"
echo "figure: notification to 2xx: median $(sed -n 25p "$WORK/latency") s, max $(tail -1 "$WORK/latency") s (curl time_total, loopback, 50 requests)"
expect_eq "$(alert_incidents | wc -l)" 1 "50 more retries make no second incident"

# A restart: the episode's incident is on disk, so the same notification re-sent (Alertmanager
# retries across a restart too) is a duplicate, found in the store, not a second capture.
stop_daemon
start_daemon --config.file="$WORK/flightrec.yaml"
wait_incident_scan
expect_contains "$(curl -s -X POST --data "$alert_json" "${URL}-/trigger/alertmanager")" \
  '"duplicate":1' "after a restart, a re-sent notification of a stored episode is a duplicate"
sleep 1  # a capture would be written at once: its window has passed
expect_eq "$(alert_incidents | wc -l)" 1 "and makes no second incident"

bad=$(curl -s -w ' %{http_code}' -X POST --data '{"version":"4"}' "${URL}-/trigger/alertmanager")
expect_eq "$bad" "status: missing
 400" "a bad payload gets 400 naming the field"

# Grafana's contact point payload on its own route; its alert lacks capture="flightrec": filtered.
grafana=$(curl -s -w ' %{http_code}' -X POST --data @"$FLIGHTREC_FIXTURES/alerts/grafana_firing.json" \
  "${URL}-/trigger/grafana")
expect_contains "$grafana" '"filtered":1' "a Grafana alert outside incidents.alerts.match is counted as filtered"
expect_contains "$grafana" ' 200' "and answered 200"
big=$(head -c 1100000 /dev/zero | tr '\0' ' ' | curl -s -o /dev/null -w '%{http_code}' -X POST \
  --data-binary @- "${URL}-/trigger/alertmanager")
expect_eq "$big" 413 "a body over 1 MiB gets 413"

finish
