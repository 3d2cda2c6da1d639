#!/usr/bin/env bash
# Slow and idle clients (docs/SECURITY.md): while 200 idle, 50 slow-header and 20 slow-reading
# connections are held, a scraper doing GET /metrics every 100 ms is answered promptly and never
# fails, and the idle ones are closed after the 10 s header timeout. Then the malformed requests
# published against civetweb 1.15 (tests/e2e/attack_shapes.py), after which the daemon still
# serves /metrics and /-/healthy; then slow readers of /dump and an incident; then, over TLS, idle,
# half-handshaken and slow-header clients.
source "$(dirname "$0")/lib.sh"
start_daemon
port=${URL##*:}
port=${port%/}

# scrape_twenty [CURL_ARGS...]: 20 GETs of /metrics, 100 ms apart, each given up after 3 s; sets
# `answered` (how many were 200) and `slowest` (seconds; 9 for one that got no answer).
scrape_twenty() {
  slowest=0 answered=0
  local code seconds
  for _ in $(seq 20); do
    read -r code seconds < <(curl -s --max-time 3 -o /dev/null -w '%{http_code} %{time_total}\n' \
      "$@" "${URL}metrics" || true)
    [ "$code" = 200 ] && answered=$((answered + 1))
    slowest=$(awk -v a="$slowest" -v b="${seconds:-9}" 'BEGIN { print (b > a ? b : a) }')
    sleep 0.1
  done
}

for _ in $(seq 100); do curl -sf "$URL-/ready" >/dev/null && break; sleep 0.1; done
# An incident for the slow readers below, written while the first checks run.
curl -s -X POST "${URL}-/trigger?reason=slow-readers" >/dev/null

# What is checked: the median scrape is prompt and none fails or waits out the 10 s header timeout.
# Without the gate every scrape would wait those 10 s or fail. The median, not p99, is bounded
# tightly: on an idle machine p99 is ~15 ms (docs/PERFORMANCE.md), but ~100 scrapes make p99 their
# slowest one, and this test shares 2 CPUs with others running in parallel, where one scrape has
# been seen to take 239 ms, and 805 ms beside a build. The slowest must stay under 5 s, half the
# timeout. A build under AddressSanitizer (make test-asan) renders /metrics several times slower:
# its median may take 250 ms. 10.5 s of scraping lets the first idle connections reach the header
# timeout.
max_p50_ms=50
if under_asan; then max_p50_ms=250; fi
result=$(python3 "$E2E_DIR/../../bench/slow_clients.py" "flightrec=127.0.0.1:$port" \
  --idle 200 --slow-header 50 --slow-read 20 --warmup 1 --duration 10.5 \
  --max-p99-ms 5000 --max-failed 0 2>&1) && status=0 || status=$?
echo "$result"
expect_eq "$status" 0 "scrapes while 270 slow or idle connections are held: none failed, the slowest under 5 s"
p50=$(sed -n 's/.* p50=\([0-9.]*\)ms.*/\1/p' <<<"$result")
if [ -n "$p50" ] && awk -v t="$p50" -v max="$max_p50_ms" 'BEGIN { exit !(t <= max) }'; then
  pass "the median scrape took ${p50} ms (at most $max_p50_ms)"
else
  fail "the median scrape took '${p50:-?}' ms, want at most $max_p50_ms"
fi
idle_closed=$(sed -n 's/.*idle_closed_after=\([0-9.]*\)s.*/\1/p' <<<"$result")
if [ -n "$idle_closed" ] && awk -v t="$idle_closed" 'BEGIN { exit !(t >= 9.5 && t <= 12) }'; then
  pass "an idle connection is closed after the 10 s header timeout (${idle_closed} s)"
else
  fail "idle connections closed after '${idle_closed:-never}' s, want about 10 s"
fi

shapes=$(python3 "$E2E_DIR/attack_shapes.py" "127.0.0.1:$port")
echo "$shapes"
expect_eq "$(wc -l <<<"$shapes")" 8 "every malformed request got an answer or a close"
expect_contains "$(grep '^no_version' <<<"$shapes")" " 400 " "a request line with no version is refused"
expect_contains "$(grep '^slashes_100k' <<<"$shapes")" " 400 " "a 100 kB path is refused"
expect_contains "$(grep '^nul_in_request_line' <<<"$shapes")" " 400 " "a NUL in the request line is refused"
expect_contains "$(grep '^header_1mib' <<<"$shapes")" ": " "a 1 MiB header is refused or closed"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' "$URL-/healthy")" 200 "/-/healthy after the malformed requests"
metrics=$(curl -s "${URL}metrics")
expect_contains "$metrics" "flightrec_build_info" "/metrics after the malformed requests"
kill -0 "$DAEMON_PID" 2>/dev/null && pass "the daemon is still running" || fail "the daemon died"

# Slow readers of the two routes with the largest answers, 40 each: each such request holds a
# worker while its answer waits to be written. Each route alone is under its 40 in flight; together
# they are bounded by half the 64 workers, so /metrics still gets a worker. Without that shared
# bound the 80 held every worker and a scrape failed after 15 s.
incident=$(curl -s "${URL}incidents" | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["id"])')
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' "${URL}incidents/$incident?format=json")" 200 \
  "the incident's JSON is served"
python3 "$E2E_DIR/slow_readers.py" "127.0.0.1:$port" 8 "/dump?from=-10s&format=csv" 40 \
  "/incidents/$incident?format=json" 40 >"$WORK/readers" &
readers=$!
for _ in $(seq 100); do grep -q held "$WORK/readers" && break; sleep 0.05; done
sleep 1  # their answers fill the socket buffers and block the workers writing them
scrape_twenty
kill "$readers" 2>/dev/null || true
wait "$readers" 2>/dev/null || true
expect_eq "$(cat "$WORK/readers")" "held 80" "80 slow readers asked for /dump and the incident"
expect_eq "$answered" 20 "scrapes answered while they hold their workers"
if awk -v s="$slowest" 'BEGIN { exit !(s < 1) }'; then
  pass "slowest scrape beside the slow readers ${slowest} s"
else
  fail "slowest scrape beside the slow readers ${slowest} s, want under 1 s"
fi

stop_daemon
expect_eq "$STOP_STATUS" 0 "daemon exits 0"

# With TLS the gate terminates TLS itself: it does the handshake and reads the header before
# civetweb sees the connection. 150 idle connections, 30 stopped inside their ClientHello and 70
# that finish the handshake and then send their header a byte a second, more than civetweb's 64
# workers: if any of these held a worker, the 65th would hold the last one for the 10 s header
# timeout and every scrape below would time out.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$WORK/tls.key" -out "$WORK/tls.crt" 2>/dev/null
printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\n' "$WORK/tls.crt" "$WORK/tls.key" \
  >"$WORK/web.yml"
start_daemon --web.config.file="$WORK/web.yml"
port=${URL##*:}
port=${port%/}
python3 "$E2E_DIR/hold_connections.py" "127.0.0.1:$port" 150 30 8 70 >"$WORK/held" &
holder=$!
for _ in $(seq 300); do grep -q held "$WORK/held" && break; sleep 0.05; done
# Handshakes are the gate's too: a worker held by a slow header would leave the 65th waiting.
expect_eq "$(cat "$WORK/held")" "held 250" "every connection opened, every TLS handshake completed"
scrape_twenty --cacert "$WORK/tls.crt"
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true
expect_eq "$answered" 20 "HTTPS scrapes answered while 250 idle, half-handshaken or slow-header TLS connections are held"
# Without the gate a scrape waits out the 10 s timeout (curl gives up at 3 s); a handshake and
# the first renderings of a just-started daemon on a busy CI machine stay well under 1 s.
if awk -v s="$slowest" 'BEGIN { exit !(s < 1) }'; then
  pass "slowest HTTPS scrape ${slowest} s"
else
  fail "slowest HTTPS scrape ${slowest} s, want under 1 s"
fi
stop_daemon
expect_eq "$STOP_STATUS" 0 "TLS daemon exits 0"
finish
