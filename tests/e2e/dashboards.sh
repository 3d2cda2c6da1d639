#!/usr/bin/env bash
# The Grafana dashboards against the real thing: flightrec runs, Debian's Prometheus scrapes it every
# second until about 25 s of data exist, then every panel query and variable of every dashboard in
# dashboards/ is evaluated through Prometheus's HTTP API (tests/e2e/dashboard_queries.py) and must
# return data; the JSON must have unique uids and panel ids and take its data source from the
# variable. A fixture of broken dashboards must fail each of those checks, so they can fail.
# The containers dashboard needs a container: as root the test makes one cgroup (in every v1
# hierarchy the tier reads, unified/ for PSI included, or in the v2 tree) with a CFS quota of 5 ms
# per 100 ms, a 256 MiB memory limit and a busy loop, which the daemon tracks by
# containers.match.path_regex; without root that dashboard alone is skipped, and said so.
source "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

check_dashboards() {
  python3 "$here/dashboard_queries.py" --prometheus "$PROM_URL" \
    --scrape-interval 1 --range "$(($(date +%s) - PROM_STARTED))" "$@"
}

dashboards=("$repo"/dashboards/*.json)
CGROUPFS=/sys/fs/cgroup
CGROUP_NAME=flightrec-dash-$$
CGROUP_DIRS=()  # the container's cgroup in each hierarchy
BURNER_PID=""
remove_cgroup() {
  if [ -n "$BURNER_PID" ]; then
    kill -9 "$BURNER_PID" 2>/dev/null || true
    wait "$BURNER_PID" 2>/dev/null || true
  fi
  local dir
  for dir in "${CGROUP_DIRS[@]}"; do
    for _ in $(seq 50); do
      rmdir "$dir" 2>/dev/null && break
      [ -d "$dir" ] || break
      sleep 0.1
    done
  done
}
trap 'remove_cgroup; cleanup' EXIT
# make_container: the cgroup, its limits and its busy loop; false when this host has no cgroup
# hierarchy with a cpu controller to make it in.
make_container() {
  local dir controller
  if [ -e "$CGROUPFS/cgroup.controllers" ]; then
    grep -qw cpu "$CGROUPFS/cgroup.subtree_control" 2>/dev/null || return 1
    CGROUP_DIRS=("$CGROUPFS/$CGROUP_NAME")
  else
    # Each controller's hierarchy once, whatever it is co-mounted with.
    local -A seen=()
    for controller in cpu cpuacct memory pids blkio unified; do
      for dir in "$CGROUPFS"/*; do
        [ -e "$dir/cgroup.procs" ] && [[ ,$(basename "$dir"), == *,$controller,* ]] || continue
        dir=$(realpath "$dir")
        [ -z "${seen[$dir]:-}" ] || break
        seen[$dir]=1
        CGROUP_DIRS+=("$dir/$CGROUP_NAME")
        break
      done
    done
  fi
  [ ${#CGROUP_DIRS[@]} -gt 0 ] || return 1
  mkdir "${CGROUP_DIRS[@]}"
  for dir in "${CGROUP_DIRS[@]}"; do
    if [ -e "$dir/cpu.max" ]; then echo "5000 100000" >"$dir/cpu.max"; fi
    if [ -e "$dir/cpu.cfs_quota_us" ]; then
      echo 100000 >"$dir/cpu.cfs_period_us"
      echo 5000 >"$dir/cpu.cfs_quota_us"
    fi
    if [ -e "$dir/memory.max" ]; then echo 268435456 >"$dir/memory.max"; fi
    if [ -e "$dir/memory.limit_in_bytes" ]; then echo 268435456 >"$dir/memory.limit_in_bytes"; fi
  done
  # Moved into every hierarchy's cgroup before it spins; 5 ms of each 100 ms: throttled every period.
  sh -c 'for dir in "$@"; do echo $$ >"$dir/cgroup.procs"; done; exec sh -c "while :; do :; done"' \
    burner "${CGROUP_DIRS[@]}" &
  BURNER_PID=$!
}
if [ "$(id -u)" -eq 0 ] && make_container; then
  pass "a container for the containers dashboard: $CGROUP_NAME, in ${#CGROUP_DIRS[@]} hierarchies"
else
  echo "skip: dashboards/flightrec-containers.json: making a container's cgroup needs root and a cpu controller"
  kept=()
  for file in "${dashboards[@]}"; do [[ $file == */flightrec-containers.json ]] || kept+=("$file"); done
  dashboards=("${kept[@]}")
fi

# A 2 s export window so the window aggregates move between the 1 s scrapes. The container tier
# takes the test's cgroup alone, and walks for it every 200 ms so it is read from the first scrape.
cat >"$WORK/flightrec.yaml" <<YAML
export:
  window: 2s
incidents:
  dir: $WORK/incidents
containers:
  discovery_interval: 200ms
  match:
    runtimes: false
    kubepods: false
    path_regex: '^/$CGROUP_NAME\$'
YAML
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

if check_dashboards "${dashboards[@]}" >"$WORK/dashboards.out"; then
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
remove_cgroup
BURNER_PID=""
for dir in "${CGROUP_DIRS[@]}"; do [ ! -d "$dir" ] || fail "$dir was not removed"; done
finish
