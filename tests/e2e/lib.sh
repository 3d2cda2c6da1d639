# Shared helpers for the end-to-end tests: each test runs the real binary and checks what a user sees.
# Usage: source lib.sh; the test gets FLIGHTREC (the binary), a scratch dir $WORK and these helpers.
set -euo pipefail
# (Under pipefail `cmd | grep -q` fails whenever grep exits before cmd has written everything: the
# tests match on captured output, `grep -q PATTERN <<<"$(cmd)"`, instead.)
FLIGHTREC=${1:?usage: $0 path/to/flightrec}
WORK=$(mktemp -d)
E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DAEMON_PID=""
PROM_PID=""
failures=0

# stop_prometheus: stops the Prometheus start_prometheus started, if it runs.
stop_prometheus() {
  if [ -n "$PROM_PID" ]; then
    kill "$PROM_PID" 2>/dev/null || true
    wait "$PROM_PID" 2>/dev/null || true
    PROM_PID=""
  fi
}

cleanup() {
  if [ -n "$DAEMON_PID" ] && kill -0 "$DAEMON_PID" 2>/dev/null; then kill -9 "$DAEMON_PID"; fi
  stop_prometheus
  rm -rf "$WORK"
}
trap cleanup EXIT

# under_asan: true when the binary was built with AddressSanitizer (FLIGHTREC_SANITIZERS, set by
# tests/CMakeLists.txt), whose quarantine holds freed memory and whose checks slow every path.
under_asan() { case ",${FLIGHTREC_SANITIZERS:-}," in *,address,*) return 0 ;; *) return 1 ;; esac; }

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() { if [ "$1" = "$2" ]; then pass "$3"; else fail "$3: got '$1', want '$2'"; fi; }
# expect_contains HAYSTACK NEEDLE WHAT
expect_contains() {
  if grep -qF -- "$2" <<<"$1"; then pass "$3"; else fail "$3: '$2' not in: $(head -c 600 <<<"$1")"; fi
}

# rfc3339 NS: Unix nanoseconds as an RFC 3339 UTC time to the millisecond, as alert payloads
# carry startsAt and endsAt.
rfc3339() { date -u -d "@$(($1 / 1000000000)).$(printf '%09d' $(($1 % 1000000000)))" +%Y-%m-%dT%H:%M:%S.%3NZ; }

# Incidents go to the scratch dir, never /var/lib: every daemon gets this config unless the test
# passes its own --config.file (which then names its own incidents.dir).
printf 'incidents:\n  dir: %s/incidents\n' "$WORK" >"$WORK/e2e-default.yaml"

# make_test_ca DIR: a CA for one test (DIR/ca.key, DIR/ca.crt), made here: no key is committed.
make_test_ca() {
  mkdir -p "$1"
  openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=flightrec-test-ca \
    -keyout "$1/ca.key" -out "$1/ca.crt" 2>/dev/null
}

# issue_certificate DIR NAME SAN: DIR/NAME.key and DIR/NAME.crt (CN=NAME, subjectAltName SAN),
# signed by DIR's CA.
issue_certificate() {
  openssl req -newkey rsa:2048 -nodes -subj "/CN=$2" -keyout "$1/$2.key" -out "$1/$2.csr" 2>/dev/null
  printf 'subjectAltName=%s\n' "$3" >"$1/$2.ext"
  openssl x509 -req -in "$1/$2.csr" -CA "$1/ca.crt" -CAkey "$1/ca.key" -CAcreateserial \
    -days 1 -extfile "$1/$2.ext" -out "$1/$2.crt" 2>/dev/null
}

# start_daemon ARGS...: starts the daemon on a free loopback port and sets URL from its log.
start_daemon() {
  # Created first: the loop below may read the log before the daemon's shell redirection makes it.
  : >"$WORK/daemon.log"
  "$FLIGHTREC" daemon --web.listen-address=127.0.0.1:0 --config.file="$WORK/e2e-default.yaml" \
    "$@" 2>"$WORK/daemon.log" &
  DAEMON_PID=$!
  for _ in $(seq 200); do
    URL=$(sed -n 's/.*msg=listening url=\([^ ]*\).*/\1/p' "$WORK/daemon.log" | head -1)
    [ -n "$URL" ] && return 0
    kill -0 "$DAEMON_PID" 2>/dev/null || break
    sleep 0.05
  done
  echo "daemon did not start; its log:" >&2
  cat "$WORK/daemon.log" >&2
  exit 1
}

# start_refused ARGS...: runs the daemon on a free loopback port with ARGS, for a start-up that
# must fail; sets START_OUTPUT (stdout and stderr) and START_STATUS.
start_refused() {
  set +e
  START_OUTPUT=$("$FLIGHTREC" daemon --web.listen-address=127.0.0.1:0 "$@" 2>&1)
  START_STATUS=$?
  set -e
}

# wait_incident_scan [SECONDS]: waits (default 60 s) until the daemon's start-up scan of the incident
# directory has verified every stored file (it runs in the background: docs/INCIDENTS.md).
wait_incident_scan() {
  for _ in $(seq $((${1:-60} * 20))); do
    grep -qi '^Flightrec-Incident-Scan: done' <<<"$(curl -sI --max-time 2 "${URL}incidents")" && return 0
    sleep 0.05
  done
  fail "the incident scan did not finish in ${1:-60} s"
}

# first_written_incident [SECONDS]: prints the id of the first written incident /incidents lists,
# waiting for one up to SECONDS (default 10); prints nothing if none was written by then.
first_written_incident() {
  local id=""
  for _ in $(seq $((${1:-10} * 10))); do
    id=$(curl -s "${URL}incidents" | python3 -c "import json, sys
print(next((i['id'] for i in json.load(sys.stdin) if i['status'] == 'written'), ''))")
    [ -n "$id" ] && break
    sleep 0.1
  done
  echo "$id"
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

# always_firing_config INCIDENTS_DIR POST [COOLDOWN]: a config whose one rule holds all the time,
# so an incident is written as soon as its POST window has passed (and again after COOLDOWN).
always_firing_config() {
  cat <<YAML
incidents:
  dir: $1
triggers:
  - name: always
    signal: memory_used_bytes
    op: ">"
    value: 0
    pre: 2s
    post: $2
YAML
  if [ $# -ge 3 ]; then echo "    cooldown: $3"; fi
}

# start_prometheus TARGET [FLAG...]: Debian's Prometheus (with FLAGs) on a free loopback port,
# scraping TARGET (host:port) every second as job "flightrec"; returns once it has scraped TARGET,
# with PROM_URL set and PROM_STARTED the second it started at.
start_prometheus() {
  cat >"$WORK/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: flightrec
    static_configs:
      - targets: ["$1"]
YAML
  start_prometheus_with "$WORK/prometheus.yml" "Prometheus scrapes flightrec: up == 1" "${@:2}"
}

# start_prometheus_with CONFIG WHAT [FLAG...]: Debian's Prometheus with CONFIG (and FLAGs, e.g.
# --enable-feature=exemplar-storage) on a free loopback port; checks (as WHAT) that its job
# "flightrec" gets up == 1 within 30 s, printing the scrape error if not.
start_prometheus_with() {
  local config=$1 what=$2 port
  shift 2
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  PROM_URL="http://127.0.0.1:$port"
  PROM_STARTED=$(date +%s)
  prometheus --config.file="$config" --storage.tsdb.path="$WORK/tsdb" \
    --web.listen-address="127.0.0.1:$port" --log.level=warn "$@" 2>"$WORK/prometheus.log" &
  PROM_PID=$!
  local up=""
  for _ in $(seq 60); do
    up=$(prom_value 'up{job="flightrec"}' 2>/dev/null || true)
    [ "$up" = 1 ] && break
    sleep 0.5
  done
  [ "$up" = 1 ] || curl -s "$PROM_URL/api/v1/targets" | grep -o 'lastError.\{0,300\}' >&2 || true
  expect_eq "$up" 1 "$what"
}

# prom_query PROMQL: one line per result of an instant query, `labels<TAB>value`.
prom_query() { python3 "$E2E_DIR/promql.py" "$PROM_URL" "$1"; }
# prom_value PROMQL: the value of the first result.
prom_value() { prom_query "$1" | head -1 | cut -f2; }

finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
  fi
  echo "all checks passed"
}
