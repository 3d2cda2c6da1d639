#!/usr/bin/env bash
# /metrics on a fixture proc root: golden body (self-metrics and tick counts filtered out), clean
# under promtool, OpenMetrics when asked, gzip when accepted.
source "$(dirname "$0")/lib.sh"
golden="$(dirname "$0")/../golden/metrics_fixture.prom"
fixture="$FLIGHTREC_FIXTURES/proc-debian12-vm"

# No per-process traffic or exit reports: they come from the live kernel, not the fixture.
printf 'incidents:\n  dir: %s/incidents\nprocesses:\n  short_lived: false\nnetwork:\n  backend: "off"\n' \
  "$WORK" >"$WORK/fixture.yaml"
start_daemon --path.procfs="$fixture" --path.cgroupfs="$FLIGHTREC_FIXTURES/sys-debian12-vm/fs/cgroup" \
  --config.file="$WORK/fixture.yaml"
for _ in $(seq 50); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "${URL}-/ready")" = 200 ] && break
  sleep 0.1
done
sleep 0.3  # some ticks, so every window aggregate has values

curl -sS -D "$WORK/text.headers" "${URL}metrics" >"$WORK/text.prom"
expect_contains "$(cat "$WORK/text.headers")" "Content-Type: text/plain; version=0.0.4; charset=utf-8" \
  "plain clients get text 0.0.4"

lint=$(promtool check metrics <"$WORK/text.prom" 2>&1) || true
expect_eq "$lint" "" "promtool check metrics finds nothing to say"

# Fixture files never change, so everything but flightrec's own health and tick counts is fixed.
grep -vE '^(# (HELP|TYPE) )?flightrec_(build_info|start_time|sampler_|source_|recorder_|ring_|scrape|incident|process_tier_|process_ring_|self_|bpf_|http_|config_last_reload_success_timestamp)' \
  "$WORK/text.prom" | grep -vE '_tick_ratio_(bucket|count|sum)' >"$WORK/filtered.prom"
expect_contains "$(cat "$WORK/text.prom")" 'flightrec_self_cpu_seconds_total{thread="sampler"}' \
  "the daemon reports its own CPU by thread group"
if [ "${FLIGHTREC_UPDATE_GOLDEN:-}" = 1 ]; then cp "$WORK/filtered.prom" "$golden"; fi
if diff -u "$golden" "$WORK/filtered.prom" >"$WORK/golden.diff"; then
  pass "body matches tests/golden/metrics_fixture.prom"
else
  fail "body differs from the golden file (FLIGHTREC_UPDATE_GOLDEN=1 rewrites it):"
  head -40 "$WORK/golden.diff" >&2
fi
expect_contains "$(cat "$WORK/text.prom")" 'flightrec_source_success{source="meminfo"} 1' \
  "self-metrics report each source"

# Every family served is documented: METRICS.md names it, or SOURCES.md without the prefix. The
# live host (its processes, their traffic) shows the families the fixture cannot.
stop_daemon
start_daemon
for _ in $(seq 50); do
  grep -q '^flightrec_top_process_cpu_ratio' <<<"$(curl -s "${URL}metrics")" && break
  sleep 0.1
done
curl -sS "${URL}metrics" >"$WORK/live.prom"
docs="$(dirname "$0")/../../docs"
undocumented=""
for family in $(sed -n 's/^# TYPE \([^ ]*\) .*/\1/p' "$WORK/text.prom" "$WORK/live.prom" | sort -u); do
  grep -qF "\`$family" "$docs/METRICS.md" || grep -qF "\`${family#flightrec_}" "$docs/SOURCES.md" ||
    undocumented="$undocumented $family"
done
expect_eq "$undocumented" "" "every family is in docs/METRICS.md or docs/SOURCES.md"

accept='application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'
curl -sS -D "$WORK/om.headers" -H "Accept: $accept" "${URL}metrics" >"$WORK/om.txt"
expect_contains "$(cat "$WORK/om.headers")" \
  "Content-Type: application/openmetrics-text; version=1.0.0; charset=utf-8" \
  "Prometheus's Accept header gets OpenMetrics"
expect_eq "$(tail -1 "$WORK/om.txt")" "# EOF" "OpenMetrics ends with # EOF"
expect_contains "$(cat "$WORK/om.txt")" "# UNIT flightrec_memory_total_bytes bytes" \
  "OpenMetrics carries units"
expect_contains "$(cat "$WORK/om.txt")" "flightrec_sampler_ticks_created " \
  "OpenMetrics counters carry _created"

curl -sS -D "$WORK/gz.headers" -H 'Accept-Encoding: gzip' "${URL}metrics" -o "$WORK/body.gz"
expect_contains "$(cat "$WORK/gz.headers")" "Content-Encoding: gzip" "gzip when accepted"
expect_contains "$(gzip -dc "$WORK/body.gz")" "flightrec_memory_total_bytes" "the gzip body inflates"

expect_eq "$(curl -s -o /dev/null -w '%{http_code}' -X POST "${URL}metrics")" 405 "POST /metrics is 405"
stop_daemon
expect_eq "$STOP_STATUS" 0 "daemon exits 0"
finish
