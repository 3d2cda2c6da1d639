#!/usr/bin/env bash
# The Grafana dashboards against the real thing: flightrec runs, Debian's Prometheus scrapes it every
# second until about 25 s of data exist, then every panel query and variable of every dashboard in
# dashboards/ is evaluated through Prometheus's HTTP API (tests/e2e/dashboard_queries.py) and must
# return data; the JSON must have unique uids and panel ids and take its data source from the
# variable. A fixture of broken dashboards must fail each of those checks, so they can fail.
source "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

check_dashboards() {
  python3 "$here/dashboard_queries.py" --prometheus "$PROM_URL" \
    --scrape-interval 1 --range "$(($(date +%s) - PROM_STARTED))" "$@"
}

# A 2 s export window so the window aggregates move between the 1 s scrapes.
printf 'export:\n  window: 2s\nincidents:\n  dir: %s/incidents\n' "$WORK" >"$WORK/flightrec.yaml"
start_daemon --config.file="$WORK/flightrec.yaml"
target=${URL#http://}
target=${target%/}

start_prometheus "$target"

# An incident, so the incident panels and annotations have something to show (written once its 5 s
# post window has passed).
expect_contains "$(curl -s -X POST "${URL}-/trigger?reason=dashboards")" "incident requested" \
  "a manual incident is requested"

samples=0
for _ in $(seq 60); do
  samples=$(prom_value 'count_over_time(flightrec_sampler_ticks_total[1m])' 2>/dev/null || echo 0)
  [ "${samples:-0}" -ge 25 ] && break
  sleep 1
done
if [ "${samples:-0}" -ge 25 ]; then pass "Prometheus holds $samples scrapes"; else fail "only ${samples:-0} scrapes after 60 s"; fi
expect_eq "$(prom_value 'sum(flightrec_incidents_total{status="written"})')" 1 "the incident was written"
incident_id=$(curl -s "${URL}incidents" | python3 -c "import json, sys; print(json.load(sys.stdin)[0]['id'])")
expect_eq "$(prom_query "flightrec_incident_newest_time_seconds{rule=\"manual\"}" | grep -o 'incident_id=[^,]*')" \
  "incident_id=$incident_id" "the annotations' series names the incident /incidents lists"

if check_dashboards "$repo"/dashboards/*.json >"$WORK/dashboards.out"; then
  pass "every query of every dashboard returns data; uids, panel ids and data sources are right"
else
  grep -v '^ok:' "$WORK/dashboards.out" >&2
  fail "dashboards/ did not pass (the lines above name dashboard, panel and query)"
fi
echo "$(grep -c 'target\|annotation' "$WORK/dashboards.out") queries evaluated"

# The broken fixtures: each rule must be caught, or the checks above prove nothing.
set +e
check_dashboards "$repo"/tests/fixtures/dashboards/*.json >"$WORK/broken.out"
status=$?
set -e
expect_eq "$status" 1 "the checker fails the broken fixture dashboards"
broken=$(cat "$WORK/broken.out")
expect_contains "$broken" "uid 'fixture-broken' is also the uid of" "a duplicate uid is caught"
expect_contains "$broken" "is also the id of 'Misspelt metric'" "a duplicate panel id is caught"
expect_contains "$broken" "'Hard-coded data source': panel has hard-coded data source" \
  "a hard-coded panel data source is caught"
expect_contains "$broken" "variable 'instance' names data source 'Prometheus'" \
  "a hard-coded variable data source is caught"
expect_contains "$broken" "no \`datasource\` template variable" "a missing datasource variable is caught"
expect_contains "$broken" "'Syntax error' target A: query failed: bad_data" "a query Prometheus rejects is caught"
expect_contains "$broken" "'Misspelt metric' target A: returned no data" "a query with no data is caught"
expect_contains "$broken" "undefined variable(s) \$nosuchvar" "an undefined variable is caught"
expect_contains "$broken" "'No query' has no query" "a panel without a query is caught"

# Before an instance's first incident the overview's incident count shows 0, not No data: its
# query for an instance that has none (one Prometheus never saw).
incidents_query=$(python3 -c 'import json, sys
panels = json.load(open(sys.argv[1]))["panels"]
panels += [p for row in panels for p in row.get("panels", [])]
print(next(p for p in panels if p["title"] == "Incidents since flightrec started")["targets"][0]["expr"])' \
  "$repo/dashboards/flightrec-overview.json")
incidents_query=${incidents_query//\$job/flightrec}
expect_eq "$(prom_query "${incidents_query//\$instance/none:0}")" "rule=all rules,status=written	0" \
  "the overview counts 0 incidents for an instance without any"
expect_eq "$(prom_query "${incidents_query//\$instance/$target}" | grep -c 'rule=all rules' || true)" 0 \
  "the 0 line goes once the instance has an incident"

stop_prometheus
stop_daemon
expect_eq "$STOP_STATUS" 0 "daemon exits 0"
finish
