#!/usr/bin/env bash
# No way around the connection gate (docs/SECURITY.md, "Threat model"): with mutual TLS the only
# web config and web.anonymous_roles [metrics, recordings] (how certificate holders are given the
# recordings), an unprivileged local user connects to every TCP and unix socket the daemon
# listens on, asks for /metrics and /incidents in plain HTTP and over TLS without a certificate,
# and gets no answer from any of them; the certificate holder gets both.
source "$(dirname "$0")/lib.sh"
command -v openssl >/dev/null || { echo "skip: no openssl"; exit 77; }
command -v setpriv >/dev/null || { echo "skip: no setpriv"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip: needs root, to look at the daemon's sockets as another user"; exit 77; }

pki=$WORK/pki
make_test_ca "$pki"
issue_certificate "$pki" server "IP:127.0.0.1,DNS:localhost"
issue_certificate "$pki" scraper "DNS:scraper"
cat >"$WORK/web.yml" <<YAML
tls_server_config:
  cert_file: pki/server.crt
  key_file: pki/server.key
  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: pki/ca.crt
YAML
printf 'incidents:\n  dir: %s/incidents\nweb:\n  anonymous_roles: [metrics, recordings]\n' "$WORK" \
  >"$WORK/flightrec.yaml"
start_daemon --config.file="$WORK/flightrec.yaml" --web.config.file="$WORK/web.yml"

with_certificate() {
  curl -s --max-time 5 --cacert "$pki/ca.crt" --cert "$pki/scraper.crt" --key "$pki/scraper.key" \
    -o /dev/null -w '%{http_code}' "$@"
}
expect_eq "$(with_certificate "${URL}metrics")" 200 "the certificate holder reads /metrics"
expect_eq "$(with_certificate "${URL}incidents")" 200 "the certificate holder reads /incidents"

listeners=$(python3 "$E2E_DIR/side_doors.py" list "$DAEMON_PID")
hostport=${URL#https://}
expect_contains "$listeners" "tcp ${hostport%/}" "the daemon's own address is among its listeners"
mapfile -t addresses <<<"$listeners"
echo "listening: ${addresses[*]}"
# The probe script comes on standard input, to Debian's python3 (the one deps/ installs): nobody
# may not be able to read the scratch or source directories, nor a python3 found in root's PATH.
probed=$(setpriv --reuid=nobody --regid=nogroup --clear-groups \
  /usr/bin/python3 - probe "${addresses[@]}" <"$E2E_DIR/side_doors.py" 2>&1)
echo "$probed"
expect_eq "$(grep -c ': no answer' <<<"$probed")" "$((4 * ${#addresses[@]}))" \
  "as nobody, every attempt on every listener goes unanswered"
if grep -q ': HTTP/' <<<"$probed"; then
  fail "a listener answered HTTP without a certificate: $(grep ': HTTP/' <<<"$probed")"
else
  pass "no listener answers HTTP to a client without the certificate"
fi
expect_eq "$(kill -0 "$DAEMON_PID" 2>/dev/null && echo running)" running "the daemon kept running"
stop_daemon
finish
