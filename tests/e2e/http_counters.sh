#!/usr/bin/env bash
# What the web server refuses shows in /metrics (docs/METRICS.md, "The web server"): floods of
# 401s, 403s, 404s, 503s, requests civetweb refuses, TLS handshakes that fail and client
# certificates refused move flightrec_http_requests_total{handler,code},
# flightrec_http_auth_failures_total{reason} and
# flightrec_http_gate_connections_closed_total{reason} by exactly as many as were sent, and
# promtool still finds nothing to say.
source "$(dirname "$0")/lib.sh"
command -v openssl >/dev/null || { echo "skip: no openssl"; exit 77; }

# value FILE SERIES: the sample of SERIES (name{labels} as exposed) in FILE, 0 when absent.
value() { awk -v series="$2" '$1 == series { v = $2 } END { print v + 0 }' "$1"; }
# expect_moved SERIES BY WHAT: SERIES grew by BY between $WORK/before.prom and $WORK/after.prom.
expect_moved() {
  expect_eq "$(($(value "$WORK/after.prom" "$1") - $(value "$WORK/before.prom" "$1")))" "$2" "$3"
}
lint() {
  expect_eq "$(promtool check metrics <"$WORK/after.prom" 2>&1 || true)" "" "$1: promtool finds nothing to say"
}
status() { curl -s --max-time 5 -o /dev/null -w '%{http_code}' "$@" || true; }
# scrape NAME CURL-ARGS...: /metrics (URL and credentials in CURL-ARGS) into $WORK/NAME.prom.
scrape() {
  local name=$1
  shift
  curl -s --max-time 5 "$@" >"$WORK/$name.prom"
}
hash_of() {
  python3 -W ignore -c "import crypt, sys; print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1 << 4)))" "$1"
}

# --- plain HTTP with basic auth and roles: 401, 403, 404, 503 and civetweb's own 400
cat >"$WORK/web.yml" <<YAML
basic_auth_users:
  scraper: '$(hash_of scrape-pw)'
  oncall: '$(hash_of oncall-pw)'
YAML
cat >"$WORK/flightrec.yaml" <<YAML
incidents:
  dir: $WORK/incidents
web:
  max_requests: 1
  roles:
    scraper: [metrics]
    oncall: [metrics, recordings]
YAML
start_daemon --config.file="$WORK/flightrec.yaml" --web.config.file="$WORK/web.yml"
port=${URL##*:}
port=${port%/}

scrape before -u scraper:scrape-pw "${URL}metrics"
for _ in 1 2 3 4 5; do status "${URL}metrics" >/dev/null; done
for _ in 1 2 3 4; do status -u scraper:wrong "${URL}metrics" >/dev/null; done
for _ in 1 2 3; do status -u mallory:scrape-pw "${URL}metrics" >/dev/null; done
for _ in 1 2 3 4 5 6; do status -u scraper:scrape-pw "${URL}dump" >/dev/null; done
for _ in 1 2 3 4 5 6 7; do status -u scraper:scrape-pw "${URL}no-such-page" >/dev/null; done
# A request line without a version: civetweb answers 400 before anything is routed.
for _ in 1 2; do
  python3 -c 'import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"GET /metrics\r\n\r\n")
while s.recv(4096): pass' "$port"
done
# One reader of /dump that reads nothing holds the route's one place (web.max_requests: 1); what
# /dump then answers is counted as the client saw it.
sleep 6  # enough history that the answer (~1 MB of JSON a second) outgrows the socket buffers
python3 "$E2E_DIR/slow_readers.py" --user=oncall:oncall-pw "127.0.0.1:$port" 30 \
  "/dump?from=-10s&format=json" 1 >"$WORK/holder.out" &
holder=$!
# Its request must be in before the ones below: were one of them first, the holder would be the
# one refused.
for _ in $(seq 100); do
  grep -q '^held 1' "$WORK/holder.out" && break
  sleep 0.05
done
sleep 0.2  # the request sent is not yet the request routed
dump_503=0
dump_200=0
for _ in $(seq 40); do
  case $(status -u oncall:oncall-pw "${URL}dump?from=-1s") in
    503) dump_503=$((dump_503 + 1)) ;;
    200) dump_200=$((dump_200 + 1)) ;;
  esac
  [ "$dump_503" -ge 3 ] && break
  sleep 0.1
done
echo "/dump answered $dump_200 times 200 and $dump_503 times 503"
expect_eq "$dump_503" 3 "the held reader fills /dump's place: 503"
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true
scrape after -u scraper:scrape-pw "${URL}metrics"
expect_moved 'flightrec_http_requests_total{handler="/metrics",code="401"}' 12 "12 requests without valid credentials: 401 on /metrics"
expect_moved 'flightrec_http_auth_failures_total{reason="missing_credentials"}' 5 "5 without credentials"
expect_moved 'flightrec_http_auth_failures_total{reason="wrong_password"}' 4 "4 with a wrong password"
expect_moved 'flightrec_http_auth_failures_total{reason="unknown_user"}' 3 "3 as an unknown user"
expect_moved 'flightrec_http_requests_total{handler="/dump",code="403"}' 6 "6 without the role: 403 on /dump"
expect_moved 'flightrec_http_requests_total{handler="none",code="404"}' 7 "7 for no route: 404"
expect_moved 'flightrec_http_requests_total{handler="none",code="400"}' 2 "2 malformed: civetweb's 400"
expect_moved 'flightrec_http_requests_total{handler="/dump",code="503"}' "$dump_503" "/dump beyond web.max_requests: 503"
expect_moved 'flightrec_http_requests_total{handler="/metrics",code="200"}' 1 "the scrape before is counted"
lint "with basic auth"
stop_daemon

# --- TLS: handshakes that fail, client certificates refused, probes that never begin one
pki=$WORK/pki
make_test_ca "$pki"
issue_certificate "$pki" server "IP:127.0.0.1,DNS:localhost"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=stranger \
  -keyout "$pki/stranger.key" -out "$pki/stranger.crt" 2>/dev/null  # from no CA the server knows
cat >"$WORK/tls.yml" <<YAML
tls_server_config:
  cert_file: pki/server.crt
  key_file: pki/server.key
  client_auth_type: VerifyClientCertIfGiven
  client_ca_file: pki/ca.crt
YAML
start_daemon --web.config.file="$WORK/tls.yml"
port=${URL##*:}
port=${port%/}
scrape before --cacert "$pki/ca.crt" "${URL}metrics"
for _ in 1 2 3; do status "http://127.0.0.1:$port/metrics" >/dev/null; done  # plain HTTP
for _ in 1 2; do
  status --cacert "$pki/ca.crt" --cert "$pki/stranger.crt" --key "$pki/stranger.key" "${URL}metrics" >/dev/null
done
python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1]))).close()' "$port"
sleep 0.2
scrape after --cacert "$pki/ca.crt" "${URL}metrics"
expect_moved 'flightrec_http_gate_connections_closed_total{reason="tls_handshake_failed"}' 5 \
  "3 plain HTTP and 2 refused certificates: 5 failed handshakes (a probe that sent nothing is not one)"
expect_moved 'flightrec_http_auth_failures_total{reason="client_certificate"}' 2 "2 client certificates refused"
expect_moved 'flightrec_http_gate_connections_accepted_total' 7 "7 connections accepted"
expect_moved 'flightrec_http_requests_total{handler="/metrics",code="200"}' 1 "the scrape before is counted"
lint "with TLS"
stop_daemon
finish
