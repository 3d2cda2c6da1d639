#!/usr/bin/env bash
# The throttled-pod example (examples/throttled-pod.flightrec, made by
# examples/make-throttled-pod.sh, walked through in docs/RUNBOOK.md "A throttled pod") still
# reads with this build and still tells its story: a container incident of rule
# checkout-throttled naming pod prod/checkout-7f9c8d6b5-x2kqp's app container; replay's
# Containers tab at the trigger shows that container against its 0.5-CPU quota and 512 MiB limit,
# with throttled periods in its period strip, and the sidecar unthrottled; the checkout workers
# are among the recorded processes, and the Processes tab names their container.
source "$(dirname "$0")/lib.sh"
EXAMPLES="$(cd "$(dirname "$0")/../.." && pwd)/examples"
RECORDING="$EXAMPLES/throttled-pod.flightrec"
[ -f "$RECORDING" ] || { fail "$RECORDING is missing"; finish; }

if "$FLIGHTREC" dump "$RECORDING" --format json >"$WORK/dump.json" 2>"$WORK/dump.err" &&
  out=$(python3 - "$WORK/dump.json" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
meta = doc["metadata"]
assert meta["incident.kind"] == "container", meta["incident.kind"]
assert meta["incident.rule"] == "checkout-throttled", meta["incident.rule"]
assert meta["incident.detail.container.namespace"] == "prod", meta
assert meta["incident.detail.container.pod"] == "checkout-7f9c8d6b5-x2kqp", meta
assert meta["incident.detail.container.container"] == "app", meta
assert float(meta["incident.value"]) > 0.5, meta["incident.value"]
assert doc["host"] == "example", doc["host"]
assert len(doc["containers"]) > 10, f"only {len(doc['containers'])} container frames"
col = {name: i for i, name in enumerate(doc["process_columns"])}
commands = {p[col["cmdline"]] for f in doc["processes"] for p in f["processes"]}
assert any("checkout_burst.py" in c for c in commands), "no checkout_burst.py process"
PY
  ); then
  pass "the dump is a container incident of checkout-throttled naming prod/checkout-7f9c8d6b5-x2kqp/app"
else
  fail "the dump is not the throttled-pod example: $(cat "$WORK/dump.err") $out"
fi

if "$FLIGHTREC" replay "$RECORDING" --batch --tab containers --format json >"$WORK/containers.json" \
  2>"$WORK/replay.err" && out=$(python3 - "$WORK/containers.json" 2>&1 <<'PY'
import json, sys
view = json.load(open(sys.argv[1]))
rows = {row["name"]: row for row in view["rows"]}
app = rows["prod/checkout-7f9c8d6b5-x2kqp/app"]
shipper = rows["prod/checkout-7f9c8d6b5-x2kqp/log-shipper"]
assert app["quota_percent"] == 50, app["quota_percent"]
assert app["memory_limit_bytes"] == 512 << 20, app["memory_limit_bytes"]
assert app["throttled_periods_percent"] > 50, app["throttled_periods_percent"]
strips = {s["path"]: s for s in view["period_strips"]}
throttled = sum(1 for cell in strips[app["path"]]["cells"] if cell["throttled"])
assert throttled >= 3, f"{throttled} throttled periods in the app's strip"
assert not any(cell["throttled"] for cell in strips[shipper["path"]]["cells"]), "the sidecar throttled"
print(f"{throttled} throttled periods")
PY
  ); then
  pass "replay's Containers tab at the trigger: the app at its quota and limit, $out; the sidecar never"
else
  fail "replay's Containers tab: $(cat "$WORK/replay.err") $out"
fi

if "$FLIGHTREC" replay "$RECORDING" --batch --filter checkout_burst --format json \
  >"$WORK/processes.json" 2>"$WORK/replay.err" && out=$(python3 - "$WORK/processes.json" 2>&1 <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert len(rows) == 5, f"{len(rows)} checkout processes, not the service and its 4 workers"
containers = {row["container"] for row in rows}
assert containers == {"prod/checkout-7f9c8d6b5-x2kqp/app"}, containers
PY
  ); then
  pass "the Processes tab names the service's and its workers' container"
else
  fail "the Processes tab's checkout rows: $(cat "$WORK/replay.err") $out"
fi
finish
