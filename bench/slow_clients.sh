#!/usr/bin/env bash
# Scrape latency of flightrec and Debian's prometheus-node-exporter, measured one after the other
# in one run, while idle, slow-header and slow-reading clients hold connections to each
# (bench/slow_clients.py does the clients and the scraping; its help says what each kind does).
# node_exporter runs with its default collectors, as the bar flightrec is held to. With --tls both
# serve HTTPS from one self-signed certificate, each given the same --web.config.file.
# usage: bench/slow_clients.sh path/to/flightrec [slow_clients.py options...]
#   e.g. bench/slow_clients.sh build/flightrec --idle 300 --slow-header 100 --slow-read 50 [--tls]
set -euo pipefail
flightrec=${1:?usage: $0 path/to/flightrec [slow_clients.py options]}
shift
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

web=()
for arg in "$@"; do
  [ "$arg" = --tls ] || continue
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$work/tls.key" -out "$work/tls.crt" 2>/dev/null
  printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\n' "$work/tls.crt" "$work/tls.key" \
    >"$work/web.yml"
  web=(--web.config.file="$work/web.yml")
done

printf 'incidents:\n  dir: %s/incidents\n' "$work" >"$work/flightrec.yaml"
fr_port=$(free_port)
"$flightrec" daemon --web.listen-address="127.0.0.1:$fr_port" --config.file="$work/flightrec.yaml" \
  "${web[@]}" 2>"$work/flightrec.log" &
pids+=("$!")
ne_port=$(free_port)
prometheus-node-exporter --web.listen-address="127.0.0.1:$ne_port" "${web[@]}" 2>"$work/ne.log" &
pids+=("$!")
sleep 2
# Each process is given as much room as the other: open files up to this shell's limit.
python3 "$here/slow_clients.py" "node_exporter=127.0.0.1:$ne_port" \
  "flightrec=127.0.0.1:$fr_port" "$@"
