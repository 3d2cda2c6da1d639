#!/usr/bin/env bash
# Memory comes back after a burst of processes: 5,000 sleeping processes are recorded (the daemon
# scraped every 3 s meanwhile), then exit; once the 10 s ring and the /metrics window no longer
# hold them, the daemon's RSS is back within 20 MiB of what it was before. Before the daemon gave
# its free memory back (recorder/heap_trim.h) it stayed 35-85 MiB above; with it, 5-10 MiB.
# The measurement is bench/process_burst_rss.sh's; this reads its logfmt line. Skipped under
# AddressSanitizer, whose allocator keeps freed memory in its quarantine on purpose.
source "$(dirname "$0")/lib.sh"
repo=$(cd "$(dirname "$0")/../.." && pwd)

if under_asan; then
  echo "skip: RSS after a burst is checked in the unsanitized run only"
  exit 77
fi

"$repo/bench/process_burst_rss.sh" "$FLIGHTREC" 5000 10s | tee "$WORK/figures"
line=$(grep '^processes=' "$WORK/figures")
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $line"; }
baseline=$(field baseline_mib)
peak=$(field peak_mib)
after=$(field after_mib)
[ -n "$after" ] || fail "no figures from bench/process_burst_rss.sh"
[ "$peak" -gt $((baseline + 20)) ] && pass "5,000 processes raise RSS (${baseline} -> ${peak} MiB)" ||
  fail "the burst did not show in RSS (${baseline} -> ${peak} MiB): is the process tier on?"
[ "$after" -le $((baseline + 20)) ] &&
  pass "after they exit, RSS is back within 20 MiB of its baseline (${after} MiB)" ||
  fail "after they exit, RSS stays at ${after} MiB, more than 20 MiB above its baseline of ${baseline} MiB"
expect_contains "$(cat "$WORK/figures")" 'msg="free memory returned to the kernel"' \
  "the daemon logs when it returns memory"

finish
