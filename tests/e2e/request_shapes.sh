#!/usr/bin/env bash
# Hostile request shapes against the daemon's own routes: a body over a POST route's bound gets
# 413 before it is read (a Content-Length of 99,999,999,999 is answered at once) and requests
# nothing; a NUL byte (%00) in a path or query is a 400, never the resource named before it.
source "$(dirname "$0")/lib.sh"

always_firing_config "$WORK/incidents" 200ms 1h >"$WORK/flightrec.yaml"
start_daemon --config.file="$WORK/flightrec.yaml" --web.enable-lifecycle
# answer ARGS...: the body, then the status after a space.
answer() { curl -s --max-time 5 -w ' %{http_code}' "$@"; }
huge=(-X POST -H 'Content-Length: 99999999999')

expect_eq "$(answer "${huge[@]}" "${URL}-/trigger?reason=big")" \
  "request body: 99999999999 bytes; this route takes none
 413" "POST /-/trigger with a body announced at 99,999,999,999 bytes gets 413 at once"
expect_eq "$(answer -H 'Transfer-Encoding: chunked' --data-binary 'reason=x' "${URL}-/trigger")" \
  "request body: not empty; this route takes none
 413" "POST /-/trigger with a chunked body gets 413"
expect_eq "$(answer "${huge[@]}" "${URL}-/reload")" \
  "request body: 99999999999 bytes; this route takes none
 413" "POST /-/reload with an announced body gets 413"
expect_eq "$(answer "${huge[@]}" "${URL}-/trigger/alertmanager")" \
  "request body: 99999999999 bytes; this route takes at most 1048576 bytes
 413" "the Alertmanager webhook refuses an announced body over 1 MiB before reading it"
sleep 0.15  # /metrics reuses a body rendered within 100 ms
metrics=$(curl -s "${URL}metrics")
expect_contains "$metrics" 'flightrec_manual_trigger_requests_total{result="accepted"} 0' \
  "the refused requests asked for no manual incident"
expect_contains "$metrics" \
  'flightrec_alert_notifications_total{source="alertmanager",result="too_large"} 1' \
  "the webhook's refusal is counted as too_large"

id=$(first_written_incident)
[ -n "$id" ] || fail "no incident was written"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' "${URL}incidents/$id")" 200 "the incident is served"
expect_eq "$(answer "${URL}incidents/$id%00evil")" \
  "the path holds a NUL byte (%00): \"/incidents/$id\\x00evil\"
 400" "/incidents/<id>%00evil is a 400, not that incident"
expect_eq "$(answer "${URL}incidents/$id/view%00")" \
  "the path holds a NUL byte (%00): \"/incidents/$id/view\\x00\"
 400" "the viewer's page with a NUL after it is a 400"
expect_eq "$(answer "${URL}incidents/$id?format=json%00")" \
  "the query holds a NUL byte (%00): \"format=json%00\"
 400" "a NUL in the query is a 400"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' "${URL}metrics")" 200 "the daemon still serves"

stop_daemon
finish
