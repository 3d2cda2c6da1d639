#!/usr/bin/env bash
# The one-shot commands: --help/--version, check-config on good and bad files, snapshot output.
source "$(dirname "$0")/lib.sh"

expect_contains "$("$FLIGHTREC" --help)" "--web.listen-address" "--help lists the flags"
expect_contains "$("$FLIGHTREC" --version)" "flightrec, version" "--version names itself"

set +e
out=$("$FLIGHTREC" --no-such-flag 2>&1); status=$?
set -e
expect_eq "$status" 2 "an unknown flag exits 2"
expect_contains "$out" "unknown flag --no-such-flag" "and says which flag"

# The embedded defaults are valid YAML that check-config accepts.
"$FLIGHTREC" check-config --print-defaults >"$WORK/defaults.yaml"
expect_contains "$(cat "$WORK/defaults.yaml")" "rate: 4ms" "defaults show sampler.rate"
expect_eq "$("$FLIGHTREC" check-config "$WORK/defaults.yaml")" "$WORK/defaults.yaml: OK" \
  "printed defaults pass check-config"

printf 'sampler:\n  rate: 1xs\n' >"$WORK/bad.yaml"
set +e
out=$("$FLIGHTREC" check-config "$WORK/bad.yaml" 2>&1); status=$?
set -e
expect_eq "$status" 1 "a bad value exits 1"
expect_contains "$out" 'sampler.rate: "1xs" is not a duration' "names the key and the value"
expect_contains "$out" "bad.yaml:2" "names the file and line"

printf 'sampler:\n  rat: 1ms\n' >"$WORK/typo.yaml"
set +e
out=$("$FLIGHTREC" check-config "$WORK/typo.yaml" 2>&1)
set -e
expect_contains "$out" 'did you mean "sampler.rate"' "unknown keys get a hint"

# Rules: a misspelt signal name is found before a start, and what each rule compares is printed,
# an averaging window as PromQL writes it.
printf 'triggers:\n  - {name: hot, signal: cpu_bussy_ratio, op: ">", value: 0.9}\n' >"$WORK/signal.yaml"
set +e
out=$("$FLIGHTREC" check-config "$WORK/signal.yaml" 2>&1); status=$?
set -e
expect_eq "$status" 1 "an unknown rule signal fails check-config"
expect_contains "$out" 'signal.yaml:2: triggers[0].signal: unknown signal "cpu_bussy_ratio"' "names the rule"
expect_contains "$out" 'did you mean "cpu_busy_ratio"?' "and the signal meant"
printf 'triggers:\n  - {name: busy, signal: '"'"'cpu_busy_ratio{cpu="total"}'"'"', op: ">=", value: 0.95, over: 1s, for: 2s}\n' \
  >"$WORK/over.yaml"
expect_eq "$("$FLIGHTREC" check-config "$WORK/over.yaml")" \
  "$WORK/over.yaml: OK
  rule busy: avg_over_time(cpu_busy_ratio{cpu=\"total\"}[1s]) >= 0.95 for 2s" "check-config shows each rule's condition"
set +e
out=$("$FLIGHTREC" snapshot --fromat=json 2>&1)
set -e
expect_contains "$out" "unknown flag --fromat; did you mean --format?" "a misspelt flag gets a hint"

set +e
out=$("$FLIGHTREC" daemon --config.file="$WORK/missing.yaml" 2>&1); status=$?
set -e
expect_eq "$status" 1 "daemon with a missing --config.file exits 1"
expect_contains "$out" "$WORK/missing.yaml" "and names the file"

# snapshot: text to stdout, JSON to a file written atomically, parsed by a real JSON parser.
text=$("$FLIGHTREC" snapshot)
expect_contains "$text" "memory_available_bytes" "text snapshot shows system values"
expect_contains "$text" "PID" "text snapshot has a process table"
"$FLIGHTREC" snapshot --format=json --output="$WORK/snap.json"
self_pid=$$
summary=$(python3 - "$WORK/snap.json" "$self_pid" <<'PY'
import json, sys
snap = json.load(open(sys.argv[1]))
pids = {p["pid"]: p for p in snap["processes"]}
shell = pids.get(int(sys.argv[2]))
print(snap["schema_version"], len(snap["processes"]) > 5, shell is not None and shell["comm"] == "bash")
PY
)
expect_eq "$summary" "1 True True" "JSON snapshot parses and holds this test's own shell"
set +e
out=$("$FLIGHTREC" snapshot --output=/nonexistent-dir/snap.json 2>&1); status=$?
set -e
expect_eq "$status" 1 "an unwritable --output exits 1"
expect_contains "$out" "/nonexistent-dir/snap.json" "and names the path"

# processes.redact_cmdline applies to a snapshot as to the daemon's recordings: the default hides a
# --password value of a live process.
/usr/bin/python3 -c 'import time; time.sleep(30)' --password=hunter2zz &
secret_pid=$!
json=$("$FLIGHTREC" snapshot --format=json)
kill "$secret_pid"
secret_cmdline=$(python3 -c 'import json,sys; p={p["pid"]: p for p in json.load(sys.stdin)["processes"]}; print(p['"$secret_pid"']["cmdline"])' <<<"$json")
expect_contains "$secret_cmdline" "time.sleep(30) <redacted>" "snapshot redacts a --password value by default"
case "$json" in
  *hunter2zz*) fail "the secret appears in the snapshot" ;;
  *) pass "and the secret appears nowhere in the snapshot" ;;
esac

# A fixture proc root: the sampler reads only what --path.procfs points at.
fixture_text=$("$FLIGHTREC" snapshot --path.procfs="$FLIGHTREC_FIXTURES/proc-debian12-vm" \
  --path.cgroupfs="$FLIGHTREC_FIXTURES/sys-debian12-vm/fs/cgroup" 2>/dev/null)
expect_contains "$fixture_text" "memory_total_bytes" "snapshot reads a fixture proc root"

# `incidents ID` that is not in the config's directory says which directory that was and how to
# point the command at the daemon's; with --dir given it names that directory alone.
printf 'incidents:\n  dir: %s/no-incidents\n' "$WORK" >"$WORK/elsewhere.yaml"
set +e
out=$("$FLIGHTREC" incidents 20261201T144550.365Z-memory_leak --config.file="$WORK/elsewhere.yaml" 2>&1)
status=$?
set -e
expect_eq "$status" 1 "incidents ID that is not there exits 1"
expect_contains "$out" "no incident 20261201T144550.365Z-memory_leak in $WORK/no-incidents
(incidents.dir of $WORK/elsewhere.yaml; for a daemon run with another config, give its --config.file=PATH, or its incident directory with --dir=DIR)" \
  "and names the config the directory came from, --config.file and --dir"
out=$("$FLIGHTREC" incidents 20261201T144550.365Z-memory_leak --dir="$WORK" 2>&1 || true)
expect_eq "$out" "no incident 20261201T144550.365Z-memory_leak in $WORK" "with --dir, no hint"
out=$("$FLIGHTREC" incidents --config.file="$WORK/elsewhere.yaml" 2>&1 || true)
expect_contains "$out" "--dir=DIR" "listing a directory that does not exist hints at --dir too"

finish
