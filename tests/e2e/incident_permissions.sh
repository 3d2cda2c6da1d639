#!/usr/bin/env bash
# A daemon moved from root to a service user: its directory chowned to the user, the incident
# files still root's and mode 0600. Neither the daemon nor `flightrec incidents` may call them
# corrupt: nothing is renamed, each file is logged once with its errno, /incidents lists them as
# unreadable, they still count toward retention, and once readable the next start indexes them.
# An existing incidents.dir the user cannot write to is reported at start-up (docs/INCIDENTS.md).
source "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ] || ! id nobody >/dev/null 2>&1; then
  echo "skipped: making files another user cannot read needs root, and a user nobody"
  exit 77
fi
RECORDING="$(cd "$(dirname "$0")/../.." && pwd)/examples/memory-leak.flightrec"
copies=30
keep=25

# The daemon and the CLI run as nobody; this shell (root) keeps the log and reads the directory.
# The binary is copied where nobody can reach it (a checkout under /root is not).
chmod 0755 "$WORK"
install -m 0755 "$FLIGHTREC" "$WORK/flightrec"
cat >"$WORK/as-nobody" <<SH
#!/bin/sh
exec setpriv --reuid=nobody --regid=nogroup --clear-groups "$WORK/flightrec" "\$@"
SH
chmod 0755 "$WORK/as-nobody"
FLIGHTREC="$WORK/as-nobody"

store="$WORK/store"
mkdir "$store"
for n in $(seq -w 0 $((copies - 1))); do
  install -o root -g root -m 0600 "$RECORDING" "$store/20261201T0000$n.000Z-copy.flightrec"
done
chown nobody:nogroup "$store"
chmod 0700 "$store"
mapfile -t files < <(find "$store" -name '*.flightrec' | sort)  # oldest first

# 1. The CLI as nobody: each file named on stderr with the reason, none called corrupt, exit 2.
status=0
"$FLIGHTREC" incidents --dir="$store" >"$WORK/list.out" 2>"$WORK/list.err" || status=$?
expect_eq "$status" 2 "flightrec incidents exits 2 when it cannot read some files"
expect_eq "$(grep -c ': cannot open: Permission denied$' "$WORK/list.err")" "$copies" \
  "and names each of them on stderr with the errno text"
expect_contains "$(cat "$WORK/list.err")" "unreadable: ${files[0]}: cannot open: Permission denied" \
  "naming the file"
if grep -q corrupt "$WORK/list.out" "$WORK/list.err"; then
  fail "the CLI calls unreadable files corrupt: $(head -3 "$WORK/list.out")"
else
  pass "the CLI calls none of them corrupt"
fi

# 2. The daemon as nobody, with room for $keep incidents.
printf 'incidents:\n  dir: %s\n  max_count: %s\nprocesses:\n  enabled: false\nnetwork:\n  backend: "off"\n' \
  "$store" "$keep" >"$WORK/nobody.yaml"
start_daemon --config.file="$WORK/nobody.yaml"
wait_incident_scan 30
expect_eq "$(find "$store" -name '*.corrupt*' | wc -l)" 0 "nothing is quarantined"
expect_contains "$(curl -s "${URL}metrics")" "flightrec_incidents_quarantined_total 0" \
  "/metrics counts no quarantine"
logged=0
for file in "${files[@]}"; do
  n=$(grep -cF "msg=\"cannot read a stored incident file; it is left as it is and listed as unreadable\" file=$file error=\"cannot open: Permission denied\"" "$WORK/daemon.log" || true)
  [ "$n" = 1 ] && logged=$((logged + 1))
done
expect_eq "$logged" "$copies" "each file is logged once, with its errno text"
expect_contains "$(cat "$WORK/daemon.log")" "unreadable=$copies" "the scan's summary counts them"
# They count toward the bounds: retention deleted the oldest, as it would have readable ones.
remaining=$(find "$store" -name '*.flightrec' | sort)
expect_eq "$remaining" "$(printf '%s\n' "${files[@]:$((copies - keep))}")" \
  "retention keeps the $keep newest, counting the unreadable files"
summary=$(curl -s "${URL}incidents" | python3 -c "import json, sys
entries = json.load(sys.stdin)
print(len(entries), sorted({e['status'] for e in entries}),
      all(e['error'].endswith(': cannot open: Permission denied') for e in entries))")
expect_eq "$summary" "$keep ['unreadable'] True" "/incidents lists each as unreadable, with the reason"
newest=$(basename "${files[-1]}" .flightrec)
expect_eq "$(curl -s "${URL}incidents/$newest")" \
  "incident $newest: ${files[-1]}: cannot open: Permission denied" \
  "/incidents/ID says why the file cannot be served"
stop_daemon
expect_eq "$STOP_STATUS" 0 "the daemon stops cleanly"

# 3. Made readable (chowned too), the next start indexes every one: nothing was lost.
find "$store" -name "*.flightrec" -exec chown nobody:nogroup {} +
start_daemon --config.file="$WORK/nobody.yaml"
wait_incident_scan 30
written=$(curl -s "${URL}incidents" | python3 -c "import json, sys
print(sum(1 for e in json.load(sys.stdin) if e['status'] == 'written'))")
expect_eq "$written" "$keep" "once readable, every file is indexed"
stop_daemon
status=0
"$FLIGHTREC" incidents --dir="$store" >"$WORK/list.out" 2>"$WORK/list.err" || status=$?
expect_eq "$status" 0 "and flightrec incidents lists them all, exit 0"

# 4. An existing directory the user cannot write to: said at start-up, not at the first incident.
mkdir -m 0755 "$WORK/roots"
printf 'incidents:\n  dir: %s/roots\nprocesses:\n  enabled: false\nnetwork:\n  backend: "off"\n' \
  "$WORK" >"$WORK/roots.yaml"
start_daemon --config.file="$WORK/roots.yaml"
expect_contains "$(cat "$WORK/daemon.log")" \
  "msg=\"the incident directory is not writable by this user; incidents will fail until it is\" dir=$WORK/roots error=\"Permission denied\"" \
  "a directory this user cannot write to is reported at start-up"
stop_daemon
finish
