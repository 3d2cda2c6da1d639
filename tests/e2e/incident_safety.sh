#!/usr/bin/env bash
# Incident files under stress: kill -9 during writes never leaves a file that looks complete but
# is not; a full disk (a small tmpfs, CI runs as root) marks incidents failed while the daemon keeps
# serving, and the next incident after space is freed is written.
source "$(dirname "$0")/lib.sh"

# 1. kill -9 at random moments while incidents are being written (one every ~1.2 s: a 100 ms post
# window, then a 1 s cooldown).
always_firing_config "$WORK/killed" 100ms 1s >"$WORK/killed.yaml"
for round in $(seq 8); do
  start_daemon --config.file="$WORK/killed.yaml"
  sleep "1.$((RANDOM % 10))$((RANDOM % 10))"
  kill -9 "$DAEMON_PID"
  wait "$DAEMON_PID" 2>/dev/null || true  # bash reports the kill; that is the point
  DAEMON_PID=""
done
complete=0
for file in "$WORK"/killed/*.flightrec; do
  [ -e "$file" ] || continue
  if "$FLIGHTREC" dump "$file" --format=csv >/dev/null 2>"$WORK/dump.err"; then
    complete=$((complete + 1))
  else
    fail "$(basename "$file") looks complete but does not read: $(cat "$WORK/dump.err")"
  fi
done
if [ "$complete" -ge 3 ]; then pass "$complete files survived 8 kill -9s, every one complete"; else fail "only $complete files written"; fi
start_daemon --config.file="$WORK/killed.yaml"
expect_contains "$(curl -s "${URL}metrics")" "flightrec_incidents_quarantined_total 0" \
  "the restart finds nothing torn to quarantine"
stop_daemon

# 2. A full disk.
if [ "$(id -u)" -ne 0 ]; then
  echo "skipped: the disk-full check mounts a tmpfs and needs root"
  finish
  exit 0
fi
mkdir -p "$WORK/small"
mount -t tmpfs -o size=2m tmpfs "$WORK/small"
trap 'umount "$WORK/small" 2>/dev/null || true; cleanup' EXIT
always_firing_config "$WORK/small/incidents" 100ms 1s >"$WORK/small.yaml"
mkdir -p "$WORK/small/incidents"
dd if=/dev/zero of="$WORK/small/filler" bs=1k count=2048 status=none 2>/dev/null || true  # fills it
start_daemon --config.file="$WORK/small.yaml"
failed=""
for _ in $(seq 50); do
  failed=$(curl -s "${URL}metrics" | sed -n 's/^flightrec_incident_write_failures_total{cause="no_space"} //p')
  [ -n "$failed" ] && [ "$failed" != 0 ] && break
  sleep 0.2
done
if [ -n "$failed" ] && [ "$failed" != 0 ]; then pass "a full disk fails incidents ($failed, cause no_space)"; else fail "no no_space failure counted"; fi
expect_contains "$(curl -s "${URL}incidents")" '"status":"failed"' "/incidents lists the failed incident"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' "${URL}metrics")" 200 "and /metrics keeps serving"
expect_eq "$(grep -c 'no_space\|No space' "$WORK/daemon.log" | tr -d ' ')" 1 "the cause is logged once, not per incident"
rm "$WORK/small/filler"
written=0
for _ in $(seq 50); do
  written=$(find "$WORK/small/incidents" -name '*.flightrec' | wc -l)
  [ "$written" -gt 0 ] && break
  sleep 0.2
done
if [ "$written" -gt 0 ]; then pass "after space is freed the next incident is written"; else fail "nothing written after freeing space"; fi
stop_daemon
expect_eq "$STOP_STATUS" 0 "daemon exits 0"
finish
