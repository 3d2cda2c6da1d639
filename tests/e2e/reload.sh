#!/usr/bin/env bash
# Live reload: SIGHUP and POST /-/reload (with --web.enable-lifecycle) re-read the config file;
# live settings change without a restart (a new trigger fires, retention tightens), restart-only
# ones keep their value with a warning, and an invalid file keeps the running configuration.
source "$(dirname "$0")/lib.sh"

config="$WORK/flightrec.yaml"
log_of() { cat "$WORK/daemon.log"; }
# metric NAME: its value, past the 100 ms for which /metrics reuses a rendered body.
metric() { sleep 0.15; curl -s "${URL}metrics" | sed -n "s/^$1 //p"; }
wait_log() {  # wait_log TEXT: up to 10 s for TEXT in the log
  for _ in $(seq 200); do grep -qF -- "$1" "$WORK/daemon.log" && return 0; sleep 0.05; done
  return 1
}

printf 'incidents:\n  dir: %s/incidents\n  max_count: 5\n' "$WORK" >"$config"
start_daemon --config.file="$config" --web.enable-lifecycle
pid=$DAEMON_PID
expect_eq "$(metric flightrec_config_last_reload_successful)" 1 "the start-up load counts as successful"
started_at=$(metric flightrec_config_last_reload_success_timestamp_seconds)

# A rule that always holds, a tighter retention, and a restart-only key changed too.
cat >"$config" <<YAML
incidents:
  dir: $WORK/incidents
  max_count: 1
sampler:
  rate: 8ms
triggers:
  - name: always
    signal: memory_used_bytes
    op: ">"
    value: 0
    pre: 2s
    post: 1s
YAML
kill -HUP "$pid"
wait_log 'msg="configuration reloaded" cause=SIGHUP' && pass "SIGHUP reloads" || fail "no reload logged: $(log_of | tail -3)"
expect_contains "$(log_of)" 'changed="incidents.max_count triggers"' "the log names what changed live"
expect_contains "$(log_of)" 'keys=sampler.rate' "a restart-only key is named and kept"
kill -0 "$pid" 2>/dev/null && pass "the daemon survives SIGHUP" || fail "SIGHUP stopped the daemon"
expect_contains "$(curl -s "${URL}metrics")" 'flightrec_sampler_rate_seconds 0.004' \
  "sampler.rate keeps its running value"
for _ in $(seq 100); do
  [ "$(curl -s "${URL}incidents" | grep -o '"rule":"always"' | wc -l)" -ge 1 ] && break
  sleep 0.1
done
expect_contains "$(curl -s "${URL}incidents")" '"rule":"always"' "the rule added by the reload fires"
later=$(metric flightrec_config_last_reload_success_timestamp_seconds)
python3 -c "import sys; sys.exit(0 if float('$later') > float('$started_at') else 1)" &&
  pass "the success timestamp moves" || fail "success timestamp $later not after $started_at"

# An invalid file: the running configuration stays, the error names the line.
printf 'incidents:\n  max_count: lots\n' >"$config"
kill -HUP "$pid"
wait_log 'msg="configuration reload failed' && pass "a bad file is reported" || fail "no failure logged"
expect_contains "$(log_of)" 'incidents.max_count: \"lots\"' "the error names the key and value"
expect_eq "$(metric flightrec_config_last_reload_successful)" 0 "/metrics shows the failed reload"
kill -0 "$pid" 2>/dev/null && pass "the daemon keeps running" || fail "a bad reload stopped the daemon"

# A rule naming a signal this host lacks fails the reload as a whole.
printf 'triggers:\n  - name: typo\n    signal: cpu_bussy_ratio\n    op: ">"\n    value: 1\n' >"$config"
answer=$(curl -s -w ' %{http_code}' -X POST "${URL}-/reload")
expect_contains "$answer" 'unknown signal "cpu_bussy_ratio"' "POST /-/reload gives the error"
expect_contains "$answer" " 500" "a failed reload is a 500"

# Back to a valid file, over HTTP this time.
always_firing_config "$WORK/incidents" 1s >"$config"
expect_eq "$(curl -s -w ' %{http_code}' -X POST "${URL}-/reload")" "configuration reloaded
 200" "POST /-/reload reloads"
expect_eq "$(metric flightrec_config_last_reload_successful)" 1 "/metrics shows the good reload"
stop_daemon
expect_eq "$STOP_STATUS" 0 "daemon exits 0"

# --- Redaction and the /dump bound change live. A process whose command line carries a value the
# default pattern lets through; after the reload the process tier reads it again, redacted.
python3 -c 'import time; time.sleep(120)' zorkmid=visible-secret-xyz &
secret_pid=$!
printf 'incidents:\n  dir: %s/incidents\n' "$WORK" >"$config"
start_daemon --config.file="$config"
pid=$DAEMON_PID
recorded_command() {  # that process's row in the recording's last process frame
  "$FLIGHTREC" replay --batch "${URL}dump?from=-2s" 2>&1 | grep -E "^ *$secret_pid "
}
sleep 2.2  # two process ticks (processes.rate 1s)
expect_contains "$(recorded_command)" "zorkmid=visible-secret-xyz" "before: the command line as it is"
reload_started=$(date +%s.%N)  # the ring has held frames for seconds by now
printf 'incidents:\n  dir: %s/incidents\nprocesses:\n  redact_cmdline: "zorkmid=[^ ]+"\n' "$WORK" >"$config"
kill -HUP "$pid"
wait_log 'changed=processes.redact_cmdline' && pass "processes.redact_cmdline is applied live" ||
  fail "no live redaction change logged: $(log_of | tail -2)"
sleep 1.5  # the next process tick reads every identity again
command_now=$(recorded_command)
expect_contains "$command_now" "time.sleep(120) <redacted>" "after: an already running process's command line is redacted"
if [[ $command_now == *visible-secret-xyz* ]]; then fail "the secret is still recorded: $command_now"; fi
kill "$secret_pid" 2>/dev/null || true

printf 'incidents:\n  dir: %s/incidents\nweb:\n  max_dump_bytes: 1MiB\n' "$WORK" >"$config"
kill -HUP "$pid"
wait_log 'changed="processes.redact_cmdline web.max_dump_bytes"' ||
  wait_log 'changed=web.max_dump_bytes' || fail "no live web.max_dump_bytes change logged"
expect_contains "$(curl -s -w ' %{http_code}' "${URL}dump?from=-60s")" "web.max_dump_bytes (1048576 bytes)" \
  "web.max_dump_bytes is applied live: a larger dump is refused"

# export.window changes live: the window's length, its label on the aggregates, the rankings.
printf 'incidents:\n  dir: %s/incidents\nexport:\n  window: 5s\nweb:\n  max_dump_bytes: 1MiB\n  max_requests: 7\n' "$WORK" >"$config"
kill -HUP "$pid"
wait_log 'changed="export.window web.max_requests"' && pass "export.window and web.max_requests are applied live" ||
  fail "no live export.window and web.max_requests change logged: $(log_of | tail -2)"
expect_eq "$(metric flightrec_export_window_seconds)" 5 "/metrics: flightrec_export_window_seconds 5"
expect_contains "$(curl -s "${URL}metrics")" 'window="5s",agg="max"' "the aggregates carry the new window label"

# Reloads while Prometheus-style scrapes run and while an incident is being written: every scrape
# answers, the incident is written whole, and the ring keeps what it held before the reloads. (The
# storm's file puts web.max_dump_bytes back to its default for the last check.)
# The storm lasts 8 s, so it spans the incident's write at the end of its 5 s post window.
printf 'incidents:\n  dir: %s/incidents\n' "$WORK" >"$config"
missed_before=$(metric flightrec_sampler_missed_ticks_total)
written_before=$(grep -c 'msg="incident written"' "$WORK/daemon.log" || true)
elapsed_before=$(metric flightrec_sampler_elapsed_seconds)
(for _ in $(seq 40); do curl -s -o /dev/null -w '%{http_code}\n' --max-time 5 "${URL}metrics"; sleep 0.2; done) \
  >"$WORK/scrapes.txt" &
scraper=$!
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' -X POST "${URL}-/trigger?reason=during-reloads")" 202 \
  "a manual incident starts"
for _ in $(seq 40); do kill -HUP "$pid"; sleep 0.2; done
wait "$scraper"
expect_eq "$(sort -u "$WORK/scrapes.txt" | xargs)" 200 "40 scrapes during 40 reloads all answer 200"
kill -0 "$pid" 2>/dev/null && pass "the daemon survives 40 reloads in 8 s" || fail "the reload storm stopped the daemon"
# The sampler is not the reloads' thread: they cost it no tick (5 % allowed for a loaded machine;
# a reload that stalled the sampler for even 10 ms each would miss 10 % here).
python3 - "$missed_before" "$(metric flightrec_sampler_missed_ticks_total)" "$elapsed_before" \
  "$(metric flightrec_sampler_elapsed_seconds)" "$(metric flightrec_sampler_rate_seconds)" <<'PY' &&
import sys
missed = float(sys.argv[2]) - float(sys.argv[1])
ticks = (float(sys.argv[4]) - float(sys.argv[3])) / float(sys.argv[5])
print(f"figure: {missed:.0f} ticks missed of {ticks:.0f} during the reload storm")
sys.exit(0 if missed <= 0.05 * ticks else 1)
PY
  pass "the reloads cost the sampler no more than 5 % of its ticks" ||
  fail "the sampler missed more than 5 % of its ticks during the reloads"
written=$(grep -c 'msg="incident written"' "$WORK/daemon.log" || true)
[ "$written" -gt "$written_before" ] && pass "the incident was written while reloads ran" ||
  fail "no incident written during the storm"
status=""
for _ in $(seq 100); do
  status=$(curl -s "${URL}incidents" | python3 -c 'import json,sys; print(" ".join(i["status"] for i in json.load(sys.stdin) if i.get("reason") == "during-reloads"))')
  [ "$status" = written ] && break
  sleep 0.1
done
expect_eq "$status" written "the incident written during the reloads is complete"
curl -s "${URL}dump?from=-30s&format=csv" -o "$WORK/after.csv"
python3 - "$WORK/after.csv" "$reload_started" <<'PY' && pass "the ring still holds frames from before the first reload" || fail "the ring lost its past across reloads"
import sys
rows = [l for l in open(sys.argv[1]) if l[:1].isdigit()]
sys.exit(0 if rows and float(rows[0].split(",")[0]) < float(sys.argv[2]) else 1)
PY
stop_daemon

# The web config is part of a reload: an invalid one fails it, naming the file, line and key.
printf 'http_server_config:\n  headers:\n    X-Frame-Options: deny\n' >"$WORK/web.yml"
printf 'incidents:\n  dir: %s/incidents\n' "$WORK" >"$config"
start_daemon --config.file="$config" --web.config.file="$WORK/web.yml"
pid=$DAEMON_PID
printf 'tls_server_confg:\n  cert_file: a\n' >"$WORK/web.yml"
kill -HUP "$pid"
wait_log 'msg="configuration reload failed' && pass "an invalid web config fails the reload" ||
  fail "no failure logged for an invalid web config"
expect_contains "$(log_of)" 'web.yml:1: tls_server_confg: unknown key' "the error names its line and key"
expect_eq "$(metric flightrec_config_last_reload_successful)" 0 "/metrics shows the failed reload"
expect_contains "$(curl -s -D - -o /dev/null "${URL}metrics")" "X-Frame-Options: deny" \
  "the previous web config stays in force"
printf 'http_server_config:\n  headers:\n    X-Frame-Options: sameorigin\n' >"$WORK/web.yml"
kill -HUP "$pid"
for _ in $(seq 50); do
  [ "$(metric flightrec_config_last_reload_successful)" = 1 ] && break
  sleep 0.1
done
expect_eq "$(metric flightrec_config_last_reload_successful)" 1 "a valid web config reloads"
expect_contains "$(curl -s -D - -o /dev/null "${URL}metrics")" "X-Frame-Options: sameorigin" \
  "and serves"
stop_daemon

# Without --web.enable-lifecycle there is no reload endpoint.
start_daemon
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' -X POST "${URL}-/reload")" 404 \
  "POST /-/reload needs --web.enable-lifecycle"
stop_daemon
finish
