#!/usr/bin/env bash
# The daemon on loopback: landing page, health endpoints, method limits, clean SIGTERM shutdown.
source "$(dirname "$0")/lib.sh"

start_daemon
expect_contains "$(cat "$WORK/daemon.log")" "level=info msg=listening url=http://127.0.0.1:" \
  "logs its URL as one logfmt line"

landing=$(curl -sS "$URL")
expect_contains "$landing" '<a href="/-/healthy">' "landing page links /-/healthy"
expect_contains "$landing" '<a href="/-/ready">' "landing page links /-/ready"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' "${URL}-/healthy")" 200 "/-/healthy is 200"

ready=000
for _ in $(seq 50); do
  ready=$(curl -s -o /dev/null -w '%{http_code}' "${URL}-/ready")
  [ "$ready" = 200 ] && break
  sleep 0.1
done
expect_eq "$ready" 200 "/-/ready turns 200 once frames are recorded"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' -X POST "${URL}-/healthy")" 405 \
  "POST is refused with 405"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' "${URL}no/such/page")" 404 "unknown path is 404"
expect_contains "$(curl -s -i "${URL}-/trigger")" "Allow: POST" "GET /-/trigger is 405 naming POST"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' -X DELETE "${URL}metrics")" 405 \
  "each component's route keeps its methods"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' "${URL}../../etc/passwd")" 404 \
  "no file serving through .."

sleep 0.5  # let it record a few hundred ticks so shutdown has real work to finish
stop_daemon
expect_eq "$STOP_STATUS" 0 "exits 0 on SIGTERM"
if [ "$STOP_MS" -lt 1000 ]; then pass "stopped in ${STOP_MS} ms"; else fail "took ${STOP_MS} ms to stop"; fi
expect_contains "$(cat "$WORK/daemon.log")" "msg=stopped" "logs that it stopped"
if grep -qv -e '^ts=' -e '^$' "$WORK/daemon.log"; then fail "non-logfmt lines on stderr"; else pass "every log line is logfmt"; fi

# A second daemon on a taken port fails with a message naming the address, exit 1.
start_daemon
taken=${URL#http://}
taken=${taken%/}
set +e
out=$("$FLIGHTREC" daemon --web.listen-address="$taken" --config.file="$WORK/e2e-default.yaml" 2>&1)
status=$?
set -e
expect_eq "$status" 1 "a taken port exits 1"
expect_contains "$out" "$taken" "the error names the address"
stop_daemon

finish
