#!/usr/bin/env bash
# Incidents end to end: a CPU burner and a memory hog (real, bounded child processes) trip their
# thresholds and each incident's window shows the cause at the tick's resolution; a manual trigger
# whose reason (and a rule's condition) reach /incidents, the file, the viewer, the CLI and replay; the
# CLI reads the files; a hand-corrupted file is quarantined at start-up.
source "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)

list() { curl -s "${URL}incidents"; }
# wait_incident RULE: id of the first written incident of RULE (waits up to 20 s).
wait_incident() {
  local id=""
  for _ in $(seq 100); do
    id=$(list | python3 -c "import json, sys
print(next((i['id'] for i in json.load(sys.stdin) if i['rule'] == sys.argv[1] and i['status'] == 'written'), ''))" "$1")
    [ -n "$id" ] && break
    sleep 0.2
  done
  echo "$id"
}

used_now=$(awk '/^MemTotal/ { t = $2 } /^MemAvailable/ { a = $2 } END { printf "%.0f\n", (t - a) * 1024 }' /proc/meminfo)
mem_threshold=$((used_now + 300 * 1024 * 1024))
cat >"$WORK/flightrec.yaml" <<YAML
incidents:
  dir: $WORK/incidents
triggers:
  - name: cpu_burst
    signal: cpu_busy_ratio{cpu="total"}
    op: ">"
    value: 0.8
    for: 30ms
    pre: 3s
    post: 1s
  - name: memory_hog
    signal: memory_used_bytes
    op: ">"
    value: $mem_threshold
    for: 10ms
    pre: 3s
    post: 2s
  - name: memory_hog_mean
    signal: memory_used_bytes
    op: ">"
    value: $mem_threshold
    over: 200ms
    pre: 1s
    post: 500ms
YAML
start_daemon --config.file="$WORK/flightrec.yaml"
tick=$(curl -s "${URL}metrics" | awk '$1 == "flightrec_sampler_rate_seconds" { print $2 }')
sleep 3.5  # a full pre window of quiet before each cause

# A CPU burner on every CPU for 400 ms.
for _ in $(seq "$(nproc)"); do timeout 0.4 sh -c 'while :; do :; done' & done
cpu_id=$(wait_incident cpu_burst)
if [ -n "$cpu_id" ]; then pass "the CPU burst made incident $cpu_id"; else fail "no cpu_burst incident after 20 s"; fi
curl -s "${URL}incidents/$cpu_id?format=csv" >"$WORK/cpu.csv"
if python3 "$here/incident_window.py" "$WORK/cpu.csv" "$tick" cpu 0.7; then
  pass "its window shows the burst at the tick's resolution"
else
  fail "the cpu_burst window does not show the burst"
fi

# A memory hog: 600 MiB touched, held for 2 s. The rule fires about half-way through the
# allocation; its 2 s after-window takes in the rest even when a loaded machine (CI's sanitized
# run) allocates slowly: with 1 s, one such run saw only 387 of the 600 MiB inside the window.
python3 -c "import time; b = bytearray(600 * 2**20); b[::4096] = b'x' * len(b[::4096]); time.sleep(2)" &
hog=$!
mem_id=$(wait_incident memory_hog)
wait "$hog"
if [ -n "$mem_id" ]; then pass "the memory hog made incident $mem_id"; else fail "no memory_hog incident after 20 s"; fi
# The same threshold on the mean over 200 ms (docs/TRIGGERS.md, "Averaging"): the hog's 2 s move it.
mean_id=$(wait_incident memory_hog_mean)
if [ -n "$mean_id" ]; then pass "the hog made an incident of the rule with over: $mean_id"; else fail "no memory_hog_mean incident after 20 s"; fi
curl -s "${URL}incidents/$mem_id?format=csv" >"$WORK/mem.csv"
# MemAvailable is the machine's: under `make test-asan` the sanitized daemons of the tests running
# beside this one grow by hundreds of MiB (ASan's quarantine), which can cross the threshold before
# the hog does (two of three CI runs on 2026-12-02 saw 387 and 177 MiB in the window). The check
# runs in the unsanitized `make test`, where the machine's memory is this test's to move.
if under_asan; then
  echo "the memory_hog window's size is checked in the unsanitized run only"
elif python3 "$here/incident_window.py" "$WORK/mem.csv" "$tick" memory $((400 * 1024 * 1024)); then
  pass "its window shows MemAvailable falling by the hog's size"
else
  fail "the memory_hog window does not show the hog"
fi

# A manual request with a reason an operator might write (spaces, punctuation, quotes, HTML).
reason='during the deploy of v2.3 (canary: 10%, "eu-west" & <b>)'
encoded=$(python3 -c "import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=''))" "$reason")
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' -X POST "${URL}-/trigger?reason=$encoded")" 202 \
  "POST /-/trigger is accepted"
expect_contains "$(curl -s -X POST "${URL}-/trigger?reason=again")" "already pending; this request joins it" \
  "a second request while the first is pending joins it"
manual_id=$(wait_incident manual)
if [ -n "$manual_id" ]; then pass "the request made incident $manual_id"; else fail "no manual incident after 20 s"; fi
# Its post window is over; the next request is within incidents.manual_interval (60 s) of it.
refused=$(curl -s -i -X POST "${URL}-/trigger?reason=flood")
expect_contains "$refused" "HTTP/1.1 429" "a request within incidents.manual_interval is refused"
expect_contains "$refused" "Retry-After: " "the refusal says when to retry"
manual_count=$(list | python3 -c "import json, sys; print(sum(i['rule'] == 'manual' for i in json.load(sys.stdin)))")
expect_eq "$manual_count" 1 "three requests made one manual incident"
# field_of ID FIELD: that field of the incident in GET /incidents.
field_of() {
  list | python3 -c "import json, sys
print(next(i[sys.argv[2]] for i in json.load(sys.stdin) if i['id'] == sys.argv[1]))" "$1" "$2"
}
expect_eq "$(field_of "$manual_id" reason)" "$reason" "/incidents gives the reason as it was sent"
expect_eq "$(field_of "$cpu_id" condition)" 'cpu_busy_ratio{cpu="total"} > 0.8' \
  "/incidents gives a rule's condition"
expect_contains "$(field_of "$mean_id" condition)" "avg_over_time(memory_used_bytes[200ms]) > " \
  "/incidents writes a rule's over as PromQL's avg_over_time"
expect_eq "$(field_of "$manual_id" kind) $(field_of "$cpu_id" kind)" "manual rule" \
  "/incidents gives each incident's kind"
expect_eq "$(curl -s "${URL}incidents/$manual_id?format=json" | python3 -c "import json, sys
print(json.load(sys.stdin)['metadata']['incident.reason'])")" "$reason" \
  "/incidents/ID?format=json carries the reason in the file's metadata"
expect_eq "$(curl -s "${URL}incidents/$manual_id?format=json" | python3 -c "import json, sys
print(json.load(sys.stdin)['metadata']['incident.kind'])")" manual \
  "/incidents/ID?format=json carries the kind in the file's metadata"
# The viewer's page: the header is drawn from the inline data, where the reason is JSON text.
view_details() {
  curl -s "${URL}incidents/$1/view" | python3 -c "import json, re, sys
page = sys.stdin.read()
data = re.search(r'<script type=\"application/json\" id=\"flightrec-data\">(.*?)</script>', page, re.S)
print(dict(json.loads(data.group(1))['details']).get(sys.argv[1], ''))" "$2"
}
expect_eq "$(view_details "$manual_id" reason)" "$reason" "the viewer's header shows the reason"
expect_eq "$(view_details "$cpu_id" condition)" 'cpu_busy_ratio{cpu="total"} > 0.8' \
  "the viewer's header shows a rule's condition"
expect_eq "$(view_details "$manual_id" kind) $(view_details "$cpu_id" kind)" "manual rule" \
  "the viewer's header shows each incident's kind"
page=$(curl -s "${URL}incidents/$manual_id/view")
case "$page" in
  *'<b>)'*) fail "the reason's HTML reaches the page unescaped" ;;
  *) pass "the reason's HTML is escaped in the page" ;;
esac
expect_eq "$(curl -s -X POST "${URL}-/trigger?reasn=typo")" 'unknown parameter "reasn" (allowed: reason)' \
  "POST /-/trigger refuses a parameter it does not know"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' "${URL}incidents/no-such-incident")" 404 "unknown id is 404"
traversal=$(curl -s -w ' %{http_code}' "${URL}incidents/..%2F..%2Fetc%2Fpasswd")
case "$traversal" in
  *root:*|*" 200") fail "path traversal through the id: $traversal" ;;
  *) pass "an id with path characters reaches no file (${traversal##* })" ;;
esac
expect_contains "$(curl -s "${URL}metrics")" 'flightrec_incidents_total{rule="cpu_burst",status="written"} 1' \
  "/metrics counts the incident"
for result in accepted coalesced refused; do
  expect_contains "$(curl -s "${URL}metrics")" "flightrec_manual_trigger_requests_total{result=\"$result\"} 1" \
    "/metrics counts one $result manual request"
done
stop_daemon
expect_eq "$STOP_STATUS" 0 "daemon exits 0"

# The CLI reads what the daemon wrote.
listing=$("$FLIGHTREC" incidents --dir="$WORK/incidents")
expect_contains "$listing" "cpu_burst" "flightrec incidents lists it"
expect_contains "$listing" "written  $reason" "flightrec incidents shows the manual request's reason"
expect_contains "$listing" 'written  cpu_busy_ratio{cpu="total"} > 0.8' \
  "flightrec incidents shows a rule's condition"
expect_eq "$(awk -v id="$manual_id" '$1 == id { print $2, $3 }' <<<"$listing") $(awk -v id="$cpu_id" \
  '$1 == id { print $2, $3 }' <<<"$listing")" "manual manual rule cpu_burst" \
  "flightrec incidents shows each incident's kind before its rule"
replayed=$("$FLIGHTREC" replay "$WORK/incidents/$manual_id.flightrec" --batch --at=end --format=json |
  python3 -c "import json, sys
t = json.load(sys.stdin)['triggers'][0]
print(t['kind'])
print(t['reason'])
print(t['label'])")
expect_eq "$(head -1 <<<"$replayed")" manual "replay's batch JSON gives the kind"
expect_eq "$(sed -n 2p <<<"$replayed")" "$reason" "replay's batch JSON gives the reason exactly"
expect_eq "$(tail -1 <<<"$replayed")" "manual: $reason" "replay's trigger label shows it"
expect_contains "$("$FLIGHTREC" replay "$WORK/incidents/$manual_id.flightrec" --batch --at=end)" \
  "trigger   manual: $reason at " "replay's batch text shows it"
expect_contains "$("$FLIGHTREC" replay "$WORK/incidents/$manual_id.flightrec" --batch --at=end)" \
  $'\nkind      manual\n' "replay's batch text shows the kind"
"$FLIGHTREC" dump "$WORK/incidents/$cpu_id.flightrec" --format=csv >"$WORK/cli.csv"
expect_eq "$(head -1 "$WORK/cli.csv")" "$(head -1 "$WORK/cpu.csv")" "flightrec dump converts the file offline"

meta=$("$FLIGHTREC" dump "$WORK/incidents/$cpu_id.flightrec" --format=json | python3 -c "import json, sys
m = json.load(sys.stdin)['metadata']
print(m.get('incident.rule'), m.get('config.origin'), 'cpu_burst' in m.get('config.yaml', ''))")
expect_eq "$meta" "cpu_burst $WORK/flightrec.yaml True" "the file records its rule and the config it ran with"
expect_eq "$("$FLIGHTREC" dump "$WORK/incidents/$manual_id.flightrec" --format=json | python3 -c "import json, sys
m = json.load(sys.stdin)['metadata']
print(m['incident.rule'] + ': ' + m['incident.reason'])")" "manual: $reason" "the file records the reason"

# A hand-corrupted file is moved aside at start-up, never served and never a crash.
file="$WORK/incidents/$mem_id.flightrec"
size=$(stat -c %s "$file")
printf '\xff\xff\xff\xff' | dd of="$file" bs=1 seek=$((size / 2)) conv=notrunc status=none
start_daemon --config.file="$WORK/flightrec.yaml"
wait_incident_scan
if [ -e "$file.corrupt" ] && [ ! -e "$file" ]; then pass "the corrupt file was quarantined"; else fail "corrupt file not quarantined"; fi
expect_contains "$(cat "$WORK/daemon.log")" "$mem_id" "and the log names it"
expect_contains "$(curl -s "${URL}metrics")" "flightrec_incidents_quarantined_total 1" "and /metrics counts it"
stop_daemon
finish
