#!/usr/bin/env bash
# From a metric to its recording: in OpenMetrics, flightrec_incidents_total carries an exemplar
# naming the rule's newest incident (docs/METRICS.md), which Debian's Prometheus, run with
# --enable-feature=exemplar-storage, stores and returns from /api/v1/query_exemplars; Grafana links
# it to /incidents/{id}/view. Text 0.0.4 scrapes stay without exemplars, and promtool accepts them.
source "$(dirname "$0")/lib.sh"
openmetrics='Accept: application/openmetrics-text; version=1.0.0'

always_firing_config "$WORK/incidents" 1s 1h >"$WORK/flightrec.yaml"
start_daemon --config.file="$WORK/flightrec.yaml"

id=$(first_written_incident)
[ -n "$id" ] || { fail "no incident written in 10 s"; finish; }

line=$(grep '^flightrec_incidents_total{rule="always",status="written"}' \
  <<<"$(curl -s -H "$openmetrics" "${URL}metrics")" || true)
if [[ "$line" =~ \ 1\ \#\ \{incident_id=\"$id\"\}\ 1\ [0-9.]+$ ]]; then
  pass "OpenMetrics: the written count carries the incident's id as an exemplar"
else
  fail "OpenMetrics: no exemplar naming $id on: $line"
fi
failed_line=$(grep '^flightrec_incidents_total{rule="always",status="failed"}' \
  <<<"$(curl -s -H "$openmetrics" "${URL}metrics")" || true)
expect_eq "$failed_line" 'flightrec_incidents_total{rule="always",status="failed"} 0' \
  "the failed count has no exemplar"

curl -s "${URL}metrics" >"$WORK/text.prom"
if grep -q ' # {' "$WORK/text.prom"; then fail "text 0.0.4 has an exemplar"; else
  pass "text 0.0.4 has no exemplar"
fi
lint=$(promtool check metrics <"$WORK/text.prom" 2>&1) || true
expect_eq "$lint" "" "promtool check metrics finds nothing to say"

target=${URL#http://}
target=${target%/}
start_prometheus "$target" --enable-feature=exemplar-storage

exemplar=""
for _ in $(seq 40); do
  exemplar=$(curl -s "$PROM_URL/api/v1/query_exemplars" --data-urlencode 'query=flightrec_incidents_total' \
    --data-urlencode "start=$(($(date +%s) - 600))" --data-urlencode "end=$(($(date +%s) + 60))" |
    python3 -c "import json, sys
for series in json.load(sys.stdin)['data']:
    for e in series['exemplars']:
        print(series['seriesLabels']['rule'], series['seriesLabels']['status'], e['labels']['incident_id'])")
  [ -n "$exemplar" ] && break
  sleep 0.5
done
expect_eq "$exemplar" "always written $id" \
  "Prometheus's /api/v1/query_exemplars returns the incident's id on the written series"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' "${URL}incidents/$id/view")" 200 \
  "the exemplar's id opens the viewer page /incidents/{id}/view"
finish
