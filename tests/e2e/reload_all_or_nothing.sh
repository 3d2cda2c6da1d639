#!/usr/bin/env bash
# A reload is one transaction: a new configuration whose web config cannot be built (its TLS
# certificate file is missing) changes nothing at all, not the trigger rules, the alert filter or
# the access roles that came with it, whether it comes by SIGHUP or POST /-/reload; once the web
# config is fixed, the next reload installs all of it.
source "$(dirname "$0")/lib.sh"
command -v openssl >/dev/null || { echo "skip: no openssl"; exit 77; }

pki=$WORK/pki
mkdir -p "$pki"
# certificate NAME: a self-signed certificate for 127.0.0.1 with subject CN=NAME, and its key.
certificate() {
  openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=$1" \
    -addext "subjectAltName=IP:127.0.0.1" -keyout "$pki/$1.key" -out "$pki/$1.crt" 2>/dev/null
}
certificate first
certificate second
web_config() { printf 'tls_server_config:\n  cert_file: pki/%s.crt\n  key_file: pki/%s.key\n' "$1" "$1"; }
web_config first >"$WORK/web.yml"

config="$WORK/flightrec.yaml"
printf 'incidents:\n  dir: %s/incidents\nprocesses:\n  enabled: false\n' "$WORK" >"$config"
# The same, plus a rule that holds from the first frame, an alert filter and narrower roles.
cat >"$WORK/changed.yaml" <<YAML
incidents:
  dir: $WORK/incidents
  alerts:
    match: ['{capture="flightrec"}']
processes:
  enabled: false
web:
  anonymous_roles: [metrics, actions]
triggers:
  - name: always
    signal: memory_used_bytes
    op: ">"
    value: 0
    pre: 1s
    post: 200ms
YAML

start_daemon --config.file="$config" --web.config.file="$WORK/web.yml" --web.enable-lifecycle
pid=$DAEMON_PID
hostport=${URL#https://}
hostport=${hostport%/}
tls_curl() { curl -s --max-time 5 --cacert "$pki/$1.crt" "${@:2}"; }
served_subject() {
  openssl s_client -connect "$hostport" </dev/null 2>/dev/null | openssl x509 -noout -subject 2>/dev/null
}
metric() { sleep 0.15; tls_curl first "${URL}metrics" | sed -n "s/^$1 //p"; }
wait_log() {  # wait_log TEXT COUNT: up to 10 s for COUNT lines holding TEXT in the log
  for _ in $(seq 200); do
    [ "$(grep -cF -- "$1" "$WORK/daemon.log" || true)" -ge "$2" ] && return 0
    sleep 0.05
  done
  return 1
}
rule_incidents() { tls_curl "$1" "${URL}incidents" | grep -o '"rule":"always"' | wc -l; }
# An alert without capture="flightrec": captured under the running filter, filtered under the new.
alert_answer() {
  tls_curl "$1" -X POST --data @- "${URL}-/trigger/alertmanager" <<JSON
{"version":"4","status":"firing","receiver":"r","groupKey":"g","alerts":[{"status":"firing",
 "labels":{"alertname":"Probe$2"},"annotations":{},"startsAt":"2026-01-01T00:00:00Z",
 "endsAt":"0001-01-01T00:00:00Z","generatorURL":"","fingerprint":"probe$2"}]}
JSON
}
expect_contains "$(served_subject)" "CN = first" "the daemon serves its first certificate"

# --- The new configuration with a web config naming a certificate file that is not there.
cp "$WORK/changed.yaml" "$config"
web_config missing >"$WORK/web.yml"
kill -HUP "$pid"
wait_log 'msg="configuration reload failed' 1 && pass "SIGHUP: the reload fails" ||
  fail "no failed reload logged: $(tail -3 "$WORK/daemon.log")"
expect_contains "$(grep 'configuration reload failed' "$WORK/daemon.log")" "pki/missing.crt" \
  "the error names the certificate file"
expect_eq "$(metric flightrec_config_last_reload_successful)" 0 "/metrics shows the failed reload"
sleep 1.5  # the rule, had it been installed, fires at once and is written 200 ms later
expect_eq "$(rule_incidents first)" 0 "the rule of the failed reload does not fire"
expect_contains "$(alert_answer first 1)" '"captured":1' "the alert filter of the failed reload is not used"
expect_eq "$(tls_curl first -o /dev/null -w '%{http_code}' "${URL}incidents")" 200 \
  "the roles of the failed reload are not used: /incidents is still open"
expect_contains "$(served_subject)" "CN = first" "the first certificate still serves"

answer=$(tls_curl first -w ' %{http_code}' -X POST "${URL}-/reload")
expect_contains "$answer" "pki/missing.crt" "POST /-/reload: the same error"
expect_contains "$answer" " 500" "and 500"
sleep 1
expect_eq "$(rule_incidents first)" 0 "still no incident of the new rule"
expect_eq "$(grep -c 'msg="configuration reloaded"' "$WORK/daemon.log" || true)" 0 \
  "no reload was logged as done"

# --- The web config fixed (and a new certificate): the same reload now installs everything.
web_config second >"$WORK/web.yml"
expect_eq "$(tls_curl first -o /dev/null -w '%{http_code}' -X POST "${URL}-/reload")" 200 \
  "with the web config fixed, POST /-/reload succeeds"
metric() { sleep 0.15; tls_curl second "${URL}metrics" | sed -n "s/^$1 //p"; }
expect_eq "$(metric flightrec_config_last_reload_successful)" 1 "/metrics shows the good reload"
expect_contains "$(served_subject)" "CN = second" "the new certificate serves"
for _ in $(seq 50); do
  [ "$(tls_curl second "${URL}metrics" | grep -c 'flightrec_incidents_total{rule="always",status="written"}')" -ge 1 ] && break
  sleep 0.1
done
expect_contains "$(tls_curl second "${URL}metrics")" 'flightrec_incidents_total{rule="always",status="written"}' \
  "the rule now fires"
expect_contains "$(alert_answer second 2)" '"filtered":1' "the alert filter is in force"
expect_eq "$(tls_curl second -o /dev/null -w '%{http_code}' "${URL}incidents")" 403 \
  "and the roles: /incidents is refused to an anonymous client"

# --- The other way round: a certificate that loads, with a rule naming no signal of this host.
web_config first >"$WORK/web.yml"
printf '  - name: typo\n    signal: cpu_bussy_ratio\n    op: ">"\n    value: 1\n' >>"$config"
answer=$(tls_curl second -w ' %{http_code}' -X POST "${URL}-/reload")
expect_contains "$answer" 'unknown signal "cpu_bussy_ratio"' "a reload with a bad rule fails, naming it"
expect_contains "$(served_subject)" "CN = second" "and the certificate that came with it is not installed"
stop_daemon
expect_eq "$STOP_STATUS" 0 "the daemon exits 0"
finish
