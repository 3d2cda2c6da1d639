#!/usr/bin/env bash
# Scrape latency with the right password while 50 clients send wrong ones (bench/auth_flood.py),
# for flightrec with a bcrypt cost-10 user (what `htpasswd -nbBC 10` makes).
# usage: bench/auth_flood.sh path/to/flightrec [ATTACKERS] [SCRAPES]
set -euo pipefail
flightrec=${1:?usage: $0 path/to/flightrec [ATTACKERS] [SCRAPES]}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
# libxcrypt's bcrypt through Python's crypt module, as tests/e2e/web_tls.sh makes its hash.
hash=$(python3 -W ignore -c 'import crypt; print(crypt.crypt("s3cr3t", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1 << 10)))')
[[ $hash == '$2b$10$'* ]] || { echo "auth_flood: could not make a bcrypt hash: $hash" >&2; exit 1; }
printf 'basic_auth_users:\n  prometheus: %s\n' "$hash" >"$work/web.yml"
printf 'incidents:\n  dir: %s/incidents\n' "$work" >"$work/flightrec.yaml"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$flightrec" daemon --web.listen-address="127.0.0.1:$port" --config.file="$work/flightrec.yaml" \
  --web.config.file="$work/web.yml" 2>"$work/flightrec.log" &
pid=$!
for _ in $(seq 100); do curl -s -o /dev/null -u prometheus:s3cr3t "http://127.0.0.1:$port/-/ready" && break; sleep 0.1; done
python3 "$here/auth_flood.py" "127.0.0.1:$port" prometheus s3cr3t "${2:-50}" "${3:-20}"
