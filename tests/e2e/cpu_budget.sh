#!/usr/bin/env bash
# sampler.cpu_budget: a daemon over a tiny budget (0.1 % of a core, which no running daemon meets)
# slows its costliest source after one 10 s window, logs it, shows the lowered rate and the change
# in /metrics (promtool-clean), and carries the change in a recording's metadata.
source "$(dirname "$0")/lib.sh"

cat >"$WORK/budget.yaml" <<YAML
sampler:
  cpu_budget: 0.1%
incidents:
  dir: $WORK/incidents
processes:
  enabled: false
YAML
start_daemon --config.file="$WORK/budget.yaml"

# rate_of SOURCE: flightrec_source_rate_seconds of that source in $WORK/metrics.prom.
rate_of() { sed -n "s/^flightrec_source_rate_seconds{source=\"$1\"} //p" "$WORK/metrics.prom"; }

curl -sS "${URL}metrics" >"$WORK/metrics.prom"
expect_contains "$(cat "$WORK/metrics.prom")" "flightrec_sampler_cpu_budget_ratio 0.001" \
  "/metrics shows the budget as a ratio"
expect_contains "$(cat "$WORK/metrics.prom")" \
  'flightrec_source_rate_changes_total{source="stat",direction="lowered"} 0' \
  "no rate changed before the first window is measured"

# The first window ends 10 s after the sampler starts; allow for a loaded machine.
lowered=""
for _ in $(seq 100); do
  lowered=$(grep -o 'msg="sampler.cpu_budget: over budget[^"]*" source=[a-z_]*' "$WORK/daemon.log" |
    head -1 | sed 's/.*source=//') || true
  [ -n "$lowered" ] && break
  sleep 0.25
done
if [ -n "$lowered" ]; then pass "the daemon lowered $lowered's rate and logged it"; else
  fail "no rate change logged after 25 s"
  cat "$WORK/daemon.log" >&2
fi
line=$(grep 'sampler.cpu_budget: over budget' "$WORK/daemon.log" | head -1)
expect_contains "$line" "level=warn" "a lowering is logged at warn"
expect_contains "$line" "budget=0.1%" "the log line names the budget"
expect_contains "$line" " cpu=" "the log line names the measured CPU"
from=$(sed -n 's/.* from=\([^ ]*\).*/\1/p' <<<"$line")
to=$(sed -n 's/.* to=\([^ ]*\).*/\1/p' <<<"$line")

curl -sS "${URL}metrics" >"$WORK/metrics.prom"
configured=$(sed -n "s/.*[\" ]$lowered=\([^ \"]*\).*/\1/p" <<<"$(grep 'msg=sampling' "$WORK/daemon.log")")
expect_eq "$from" "$configured" "the first change starts from the configured rate"
now=$(rate_of "$lowered")
# The rate may have been lowered again since: it is at least the first lowered one.
if python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0 and float(sys.argv[1]) >= float(sys.argv[2].rstrip('ms')) / 1000 else 1)" \
  "$now" "$to"; then
  pass "/metrics shows $lowered read every $now s (lowered to $to)"
else
  fail "/metrics shows $lowered read every '$now' s, not at least $to"
fi
expect_contains "$(cat "$WORK/metrics.prom")" \
  "flightrec_source_rate_changes_total{source=\"$lowered\",direction=\"lowered\"}" \
  "/metrics counts the change"
used=$(sed -n 's/^flightrec_sampler_cpu_budget_used_ratio //p' "$WORK/metrics.prom")
if python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0.001 else 1)" "${used:-0}"; then
  pass "/metrics shows the measured CPU ($used) over the budget"
else
  fail "flightrec_sampler_cpu_budget_used_ratio is '$used'"
fi
lint=$(promtool check metrics <"$WORK/metrics.prom" 2>&1) || true
expect_eq "$lint" "" "promtool check metrics finds nothing to say"

# A recording made now carries the change, and a manual incident's metadata does too.
changes=$(curl -sS "${URL}dump?from=-1s&format=json" | python3 -c "import json, sys
print(json.load(sys.stdin)['metadata']['sampler.rate_changes'])")
expect_contains "$changes" "$lowered=$to@" "/dump's metadata carries the change with its time"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' -X POST "${URL}-/trigger?reason=budget")" 202 \
  "POST /-/trigger is accepted"
id=""
for _ in $(seq 100); do
  id=$(curl -s "${URL}incidents" | python3 -c "import json, sys
print(next((i['id'] for i in json.load(sys.stdin) if i.get('rule') == 'manual' and i.get('status') == 'written'), ''))")
  [ -n "$id" ] && break
  sleep 0.25
done
if [ -n "$id" ]; then
  changes=$(curl -s "${URL}incidents/$id?format=json" | python3 -c "import json, sys
print(json.load(sys.stdin)['metadata']['sampler.rate_changes'])")
  expect_contains "$changes" "$lowered=$to@" "the incident's metadata carries the change"
else
  fail "no manual incident after 25 s"
fi

stop_daemon
expect_eq "$STOP_STATUS" 0 "daemon exits 0"
finish
