# Shared helpers for the end-to-end tests: each test runs the real binary and checks what a user sees.
# Usage: source lib.sh; the test gets FLIGHTREC (the binary), a scratch dir $WORK and these helpers.
set -euo pipefail
FLIGHTREC=${1:?usage: $0 path/to/flightrec}
WORK=$(mktemp -d)
DAEMON_PID=""
failures=0

cleanup() {
  if [ -n "$DAEMON_PID" ] && kill -0 "$DAEMON_PID" 2>/dev/null; then kill -9 "$DAEMON_PID"; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() { if [ "$1" = "$2" ]; then pass "$3"; else fail "$3: got '$1', want '$2'"; fi; }
# expect_contains HAYSTACK NEEDLE WHAT
expect_contains() {
  if grep -qF -- "$2" <<<"$1"; then pass "$3"; else fail "$3: '$2' not in: $(head -c 600 <<<"$1")"; fi
}

# Incidents go to the scratch dir, never /var/lib: every daemon gets this config unless the test
# passes its own --config.file (which then names its own incidents.dir).
printf 'incidents:\n  dir: %s/incidents\n' "$WORK" >"$WORK/e2e-default.yaml"

# start_daemon ARGS...: starts the daemon on a free loopback port and sets URL from its log.
start_daemon() {
  "$FLIGHTREC" daemon --web.listen-address=127.0.0.1:0 --config.file="$WORK/e2e-default.yaml" \
    "$@" 2>"$WORK/daemon.log" &
  DAEMON_PID=$!
  for _ in $(seq 100); do
    URL=$(sed -n 's/.*msg=listening url=\([^ ]*\).*/\1/p' "$WORK/daemon.log" | head -1)
    [ -n "$URL" ] && return 0
    kill -0 "$DAEMON_PID" 2>/dev/null || break
    sleep 0.05
  done
  echo "daemon did not start; its log:" >&2
  cat "$WORK/daemon.log" >&2
  exit 1
}

# stop_daemon: SIGTERM, then the exit status and the milliseconds it took in STOP_STATUS/STOP_MS.
stop_daemon() {
  local begin end
  begin=$(date +%s%N)
  kill -TERM "$DAEMON_PID"
  set +e
  wait "$DAEMON_PID"
  STOP_STATUS=$?
  set -e
  end=$(date +%s%N)
  STOP_MS=$(((end - begin) / 1000000))
  DAEMON_PID=""
}

finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
  fi
  echo "all checks passed"
}
