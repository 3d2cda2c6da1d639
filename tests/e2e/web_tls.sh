#!/usr/bin/env bash
# --web.config.file end to end: a CA, a server and two client certificates made here with openssl
# (no key is ever committed), the daemon serving HTTPS with basic auth, then mutual TLS; curl,
# openssl s_client and Debian's Prometheus are the clients. docs/SECURITY.md describes the setup.
source "$(dirname "$0")/lib.sh"
command -v openssl >/dev/null || { echo "skip: no openssl"; exit 77; }

# --- certificates: a CA; the server's for 127.0.0.1; clients "scraper" (allowed) and "intruder"
pki=$WORK/pki
make_test_ca "$pki"
issue() { issue_certificate "$pki" "$@"; }
issue server "IP:127.0.0.1,DNS:localhost"
issue scraper "DNS:scraper"
issue intruder "DNS:intruder"

# A bcrypt hash at cost 10, as `htpasswd -nbBC 10` makes one, by libxcrypt through Python.
hash=$(python3 -W ignore -c 'import crypt; print(crypt.crypt("s3cr3t", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1 << 10)))')
[[ $hash == '$2b$10$'* ]] || { fail "could not make a bcrypt hash: $hash"; finish; }

cat >"$WORK/web.yml" <<YAML
tls_server_config:
  cert_file: pki/server.crt
  key_file: pki/server.key
http_server_config:
  headers:
    X-Content-Type-Options: nosniff
basic_auth_users:
  prometheus: '$hash'
YAML
# An invalid file stops start-up with the error naming file, line and key.
printf 'tls_server_config:\n  cert_file: pki/server.crt\n  key_file: pki/server.key\n  min_version: TLS1.2\n' >"$WORK/bad.yml"
start_refused --config.file="$WORK/e2e-default.yaml" --web.config.file="$WORK/bad.yml"
bad=$START_OUTPUT
expect_eq "$START_STATUS" 1 "an invalid web config: exit 1"
# (logfmt escapes the quotes around the value)
expect_contains "$bad" "$WORK/bad.yml:4: tls_server_config.min_version: \\\"TLS1.2\\\" is not a TLS version" \
  "an invalid web config: the error names file, line and key"

# A value OpenSSL here cannot honour is refused at start-up, saying so.
sed 's/TLS1.2/TLS11/' "$WORK/bad.yml" >"$WORK/tls11.yml"
bad=$("$FLIGHTREC" daemon --web.listen-address=127.0.0.1:0 --config.file="$WORK/e2e-default.yaml" \
  --web.config.file="$WORK/tls11.yml" 2>&1 || true)
expect_contains "$bad" "tls_server_config.min_version: TLS11 cannot be honoured" \
  "min_version TLS11: refused at start-up, naming the key"

start_daemon --web.config.file="$WORK/web.yml"
expect_contains "$URL" "https://127.0.0.1:" "the daemon says it listens on https"
hostport=${URL#https://}
hostport=${hostport%/}
tls_curl() { curl -s --max-time 5 --cacert "$pki/ca.crt" -o /dev/null -w '%{http_code}' "$@"; }

expect_eq "$(tls_curl -u prometheus:s3cr3t "${URL}metrics")" 200 "right password: /metrics 200"
expect_eq "$(tls_curl -u prometheus:wrong "${URL}metrics")" 401 "wrong password: 401"
expect_eq "$(tls_curl "${URL}metrics")" 401 "no password: 401"
expect_eq "$(tls_curl "${URL}dump")" 401 "no password: /dump 401"
expect_eq "$(tls_curl -X POST "${URL}-/trigger")" 401 "no password: POST /-/trigger 401"
expect_eq "$(tls_curl "${URL}-/healthy")" 200 "/-/healthy stays open for probes"
headers=$(curl -s --max-time 5 --cacert "$pki/ca.crt" -D - -o /dev/null "${URL}metrics")
expect_contains "$headers" 'WWW-Authenticate: Basic realm="flightrec"' "401 asks for basic auth"
expect_contains "$headers" "X-Content-Type-Options: nosniff" "http_server_config.headers are sent"
expect_eq "$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' "http://$hostport/metrics")" 000 \
  "plain HTTP gets no answer from the TLS port"

# TLS versions: 1.2 and 1.3 by default, 1.0 and 1.1 refused by the server (the client is allowed to offer
# it: SECLEVEL=0, since Debian's OpenSSL would not even try otherwise).
s_client() { openssl s_client -connect "$hostport" -CAfile "$pki/ca.crt" "$@" </dev/null >"$WORK/s_client.log" 2>&1; }
if s_client -tls1_2; then pass "TLS 1.2 handshake"; else fail "TLS 1.2 refused: $(tail -3 "$WORK/s_client.log")"; fi
if s_client -tls1_3; then pass "TLS 1.3 handshake"; else fail "TLS 1.3 refused"; fi
for version in 1.0 1.1; do
  flag=-tls1
  [ "$version" = 1.1 ] && flag=-tls1_1
  if s_client "$flag" -cipher 'DEFAULT@SECLEVEL=0'; then
    fail "TLS $version handshake accepted"
  else
    expect_contains "$(cat "$WORK/s_client.log")" "alert protocol version" "TLS $version refused by the server"
  fi
done

# Certificate rotation without a restart: a key that is not the certificate's keeps the old pair
# (logged), then a complete new pair, renamed into place as cert-manager does, serves from the
# next handshake on (the files are looked at once a second).
served_subject() { s_client -tls1_3 || true; sed -n 's/^subject=//p' "$WORK/s_client.log" | head -1; }
expect_contains "$(served_subject)" "CN = server" "before rotation: the first certificate"
issue rotated "IP:127.0.0.1,DNS:localhost"
cp "$pki/rotated.key" "$pki/server.key.new" && mv "$pki/server.key.new" "$pki/server.key"
sleep 1.2
expect_contains "$(served_subject)" "CN = server" "a key without its certificate: the old pair still serves"
expect_contains "$(cat "$WORK/daemon.log")" "TLS certificate files changed but do not load" \
  "the mismatched pair is logged"
cp "$pki/rotated.crt" "$pki/server.crt.new" && mv "$pki/server.crt.new" "$pki/server.crt"
sleep 1.2
expect_contains "$(served_subject)" "CN = rotated" "after rotation: the new certificate, no restart"
expect_eq "$(tls_curl -u prometheus:s3cr3t "${URL}metrics")" 200 "the rotated certificate verifies: 200"
expect_eq "$(kill -0 "$DAEMON_PID" 2>/dev/null && echo running)" running "the daemon kept running"
stop_daemon

# --- mutual TLS: RequireAndVerifyClientCert with a SAN allow-list, max TLS 1.2
# mtls_web_config [KEYS]: RequireAndVerifyClientCert with the CA and the allow-list [scraper], plus
# KEYS (more tls_server_config lines), and the prometheus user.
mtls_web_config() {
  cat >"$WORK/web.yml" <<YAML
tls_server_config:
  cert_file: pki/server.crt
  key_file: pki/server.key
  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: pki/ca.crt
  client_allowed_sans: [scraper]
${1:-}
basic_auth_users:
  prometheus: '$hash'
YAML
}
mtls_web_config "  max_version: TLS12
  cipher_suites: [TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384]"
start_daemon --web.config.file="$WORK/web.yml"
hostport=${URL#https://}
hostport=${hostport%/}
expect_eq "$(tls_curl -u prometheus:s3cr3t "${URL}metrics")" 000 "no client certificate: handshake fails"
expect_eq "$(tls_curl --cert "$pki/scraper.crt" --key "$pki/scraper.key" -u prometheus:s3cr3t \
  "${URL}metrics")" 200 "client certificate from the CA with an allowed SAN: 200"
expect_eq "$(tls_curl --cert "$pki/intruder.crt" --key "$pki/intruder.key" -u prometheus:s3cr3t \
  "${URL}metrics")" 000 "client certificate whose SAN is not allowed: handshake fails"
expect_eq "$(tls_curl --cert "$pki/scraper.crt" --key "$pki/scraper.key" "${URL}metrics")" 401 \
  "client certificate but no password: 401"
if s_client -tls1_3 -cert "$pki/scraper.crt" -key "$pki/scraper.key"; then
  fail "TLS 1.3 accepted with max_version TLS12"
else
  pass "max_version TLS12 refuses TLS 1.3"
fi
s_client -tls1_2 -cert "$pki/scraper.crt" -key "$pki/scraper.key" || true
expect_contains "$(cat "$WORK/s_client.log")" "ECDHE-RSA-AES256-GCM-SHA384" "cipher_suites is applied"

# flightrec replay (libcurl) against the mutual-TLS daemon: flags, then the environment; a refusal
# says how to give what is missing and never shows the password.
replay() { "$FLIGHTREC" replay --batch "${URL}dump?from=-2s" "$@" >"$WORK/replay.out" 2>"$WORK/replay.err"; }
client_tls=(--ca-file "$pki/ca.crt" --cert-file "$pki/scraper.crt" --key-file "$pki/scraper.key")
sleep 2.2  # two seconds of recording to fetch
printf 's3cr3t\n' >"$WORK/password"
if replay "${client_tls[@]}" --user prometheus --password-file "$WORK/password"; then
  expect_contains "$(cat "$WORK/replay.out")" "PID" "replay over mTLS with basic auth shows the processes"
else
  fail "replay over mTLS with basic auth: $(cat "$WORK/replay.err")"
fi
if FLIGHTREC_CA_FILE="$pki/ca.crt" FLIGHTREC_CERT_FILE="$pki/scraper.crt" \
  FLIGHTREC_KEY_FILE="$pki/scraper.key" FLIGHTREC_USER=prometheus FLIGHTREC_PASSWORD=s3cr3t replay; then
  pass "replay takes its credentials from FLIGHTREC_* variables"
else
  fail "replay with FLIGHTREC_* variables: $(cat "$WORK/replay.err")"
fi
FLIGHTREC_PASSWORD=n0tThat replay "${client_tls[@]}" --user prometheus || true
expect_contains "$(cat "$WORK/replay.err")" "401 Unauthorized" "replay with a wrong password: 401"
expect_contains "$(cat "$WORK/replay.err")" "FLIGHTREC_PASSWORD" "the 401 says how to give a password"
if grep -q n0tThat "$WORK/replay.err" "$WORK/replay.out"; then fail "replay echoed the password"; fi
replay --cert-file "$pki/scraper.crt" --key-file "$pki/scraper.key" --user prometheus || true
expect_contains "$(cat "$WORK/replay.err")" "not trusted" "replay without the CA: certificate not trusted"
replay --ca-file "$pki/ca.crt" --user prometheus || true
expect_contains "$(cat "$WORK/replay.err")" "--cert-file" "replay without a client certificate names --cert-file"

# tls_server_config changes on a reload, for new connections: without max_version, TLS 1.3.
wait_log() { for _ in $(seq 100); do grep -qF -- "$1" "$WORK/daemon.log" && return 0; sleep 0.1; done; return 1; }
mtls_web_config
kill -HUP "$DAEMON_PID"
wait_log 'msg="TLS settings reloaded' && pass "a reload applies the new tls_server_config" ||
  fail "no TLS reload logged: $(tail -3 "$WORK/daemon.log")"
if s_client -tls1_3 -cert "$pki/scraper.crt" -key "$pki/scraper.key"; then
  pass "after the reload TLS 1.3 is accepted"
else
  fail "TLS 1.3 still refused after the reload removed max_version"
fi
# A tls_server_config that cannot be built fails the reload; the running settings stay.
sed -i 's#cert_file: pki/server.crt#cert_file: pki/missing.crt#' "$WORK/web.yml"
kill -HUP "$DAEMON_PID"
wait_log 'msg="configuration reload failed' && pass "a broken tls_server_config fails the reload" ||
  fail "no failed reload logged"
expect_contains "$(grep 'msg="configuration reload failed' "$WORK/daemon.log")" "missing.crt" \
  "the error names the file"
mtls_curl() { tls_curl --cert "$pki/scraper.crt" --key "$pki/scraper.key" -u prometheus:s3cr3t "$@"; }
expect_eq "$(mtls_curl "${URL}metrics")" 200 "the running TLS settings still serve"
expect_eq "$(curl -s --max-time 5 --cacert "$pki/ca.crt" --cert "$pki/scraper.crt" --key "$pki/scraper.key" \
  -u prometheus:s3cr3t "${URL}metrics" | awk '$1 == "flightrec_config_last_reload_successful" { print $2 }')" 0 \
  "flightrec_config_last_reload_successful 0"

stop_daemon

# --- the other client_auth_types, with a self-signed client certificate no CA vouches for
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=stranger -addext subjectAltName=DNS:stranger \
  -keyout "$pki/stranger.key" -out "$pki/stranger.crt" 2>/dev/null
# client_auth TYPE: restarts the daemon with that client_auth_type (and the CA) and no users.
client_auth() {
  printf 'tls_server_config:\n  cert_file: pki/server.crt\n  key_file: pki/server.key\n  client_auth_type: %s\n  client_ca_file: pki/ca.crt\n' \
    "$1" >"$WORK/web.yml"
  start_daemon --web.config.file="$WORK/web.yml"
}
client_auth VerifyClientCertIfGiven
expect_eq "$(tls_curl "${URL}metrics")" 200 "VerifyClientCertIfGiven: no certificate is fine"
expect_eq "$(tls_curl --cert "$pki/scraper.crt" --key "$pki/scraper.key" "${URL}metrics")" 200 \
  "VerifyClientCertIfGiven: a certificate from the CA is fine"
expect_eq "$(tls_curl --cert "$pki/stranger.crt" --key "$pki/stranger.key" "${URL}metrics")" 000 \
  "VerifyClientCertIfGiven: a certificate the CA did not sign fails the handshake"
stop_daemon
client_auth RequireAnyClientCert
expect_eq "$(tls_curl "${URL}metrics")" 000 "RequireAnyClientCert: no certificate fails the handshake"
expect_eq "$(tls_curl --cert "$pki/stranger.crt" --key "$pki/stranger.key" "${URL}metrics")" 200 \
  "RequireAnyClientCert: any certificate is taken, unverified"
stop_daemon

# The mutual-TLS daemon again, for Prometheus.
mtls_web_config
start_daemon --web.config.file="$WORK/web.yml"
hostport=${URL#https://}
hostport=${hostport%/}

# --- Debian's Prometheus scrapes over https with basic_auth and a client certificate: job
# "right" has the password, job "wrong" does not, job "nocert" has the password but no client
# certificate.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
PROM_URL="http://127.0.0.1:$port"
job() {  # job NAME PASSWORD [nocert]
  cat <<YAML
  - job_name: $1
    scheme: https
    basic_auth: {username: prometheus, password: $2}
    tls_config:
      ca_file: $pki/ca.crt
YAML
  [ "${3:-}" = nocert ] || printf '      cert_file: %s\n      key_file: %s\n' "$pki/scraper.crt" "$pki/scraper.key"
  printf '    static_configs: [{targets: ["%s"]}]\n' "$hostport"
}
{
  printf 'global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\nscrape_configs:\n'
  job right s3cr3t
  job wrong guess
  job nocert s3cr3t nocert
} >"$WORK/prometheus.yml"
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
  --web.listen-address="127.0.0.1:$port" --log.level=warn 2>"$WORK/prometheus.log" &
PROM_PID=$!
right="" wrong="" nocert=""
for _ in $(seq 60); do
  right=$(prom_value 'up{job="right"}' 2>/dev/null || true)
  wrong=$(prom_value 'up{job="wrong"}' 2>/dev/null || true)
  nocert=$(prom_value 'up{job="nocert"}' 2>/dev/null || true)
  [ "$right" = 1 ] && [ -n "$wrong" ] && [ -n "$nocert" ] && break
  sleep 0.5
done
[ "$right" = 1 ] || curl -s "$PROM_URL/api/v1/targets" | grep -o 'lastError.\{0,300\}' >&2 || true
expect_eq "$right" 1 "Prometheus with the password and client certificate: up == 1"
expect_eq "$wrong" 0 "Prometheus with a wrong password: up == 0"
expect_eq "$nocert" 0 "Prometheus without the required client certificate: up == 0"
stop_prometheus

stop_daemon
expect_eq "$STOP_STATUS" 0 "daemon exits 0"
finish
