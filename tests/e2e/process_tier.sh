# The process tier in the running daemon: process frames in /dump (with redacted command lines,
# sockets and their owners, processes that lived between two ticks) and in incident files, and
# the bounded top-N families in /metrics.
source "$(dirname "$0")/lib.sh"

start_daemon
DAEMON_PORT=${URL##*:}
DAEMON_PORT=${DAEMON_PORT%/}

# A process with a secret on its command line, and a few that live far shorter than a tick.
python3 -c 'import time; time.sleep(6)' --password=hunter2 &
SECRET_PID=$!
cp "$(type -P true)" "$WORK/blip-proc"
for _ in $(seq 5); do "$WORK/blip-proc"; done
sleep 1

curl -sS "${URL}dump?format=json&from=-3s" >"$WORK/dump.json"
check() { python3 - "$WORK/dump.json" "$@" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
what, arg = sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else ""
cols = doc["process_columns"]
rows = [dict(zip(cols, r)) for f in doc["processes"] for r in f["processes"]]
if what == "frames":
    times = [f["time"] for f in doc["processes"]]
    gaps = sorted(b - a for a, b in zip(times, times[1:]))
    print(len(times), round(gaps[len(gaps) // 2] * 1000) if gaps else 0)
elif what == "cmdline":
    print(next((r["cmdline"] for r in rows if r["pid"] == int(arg)), "(no row)"))
elif what == "exited-comm":
    print(sum(1 for r in rows if r["comm"] == arg and r["exited"]))
elif what == "listener":
    scols = doc["socket_columns"]
    socks = [dict(zip(scols, s)) for f in doc["processes"] for s in f["sockets"]]
    print(next((s["pid"] for s in socks if s["listening"] and s["local"].endswith(":" + arg)), 0))
PY
}
read -r frames gap_ms <<<"$(check frames)"
if [ "$frames" -ge 4 ] && [ "$gap_ms" -ge 200 ] && [ "$gap_ms" -le 300 ]; then
  pass "/dump JSON has $frames process frames, ${gap_ms} ms apart (sampler.process_rate 250ms)"
else
  fail "/dump JSON has $frames process frames, median gap ${gap_ms} ms"
fi
cmdline=$(check cmdline "$SECRET_PID")
expect_contains "$cmdline" "<redacted>" "a --password value is redacted"
if grep -q hunter2 "$WORK/dump.json"; then fail "the secret is in /dump"; else pass "the secret is nowhere in /dump"; fi
expect_eq "$(check listener "$DAEMON_PORT")" "$DAEMON_PID" "the daemon's listening socket is attributed to its pid"
if [ "$(id -u)" -eq 0 ]; then
  blips=$(check exited-comm blip-proc)
  expect_eq "$blips" 5 "processes that lived between two ticks appear once each, marked exited"
else
  echo "SKIP: short-lived processes need the eBPF exit watcher (root)"
fi

metrics=$(curl -sS "${URL}metrics")
expect_contains "$metrics" 'flightrec_top_process_cpu_ratio{pid="' "top processes by CPU are exported"
expect_contains "$metrics" 'flightrec_processes{state="S"}' "process counts by state are exported"
ranked=$(grep -c '^flightrec_top_process_resident_memory_bytes{' <<<"$metrics" || true)
expect_eq "$ranked" 10 "the memory ranking holds export.top_processes (10) processes"

# An incident file carries the process frames of its window.
curl -sS -X POST "${URL}-/trigger?reason=process_tier_test" >/dev/null
id=""
for _ in $(seq 100); do
  id=$(curl -sS "${URL}incidents" | python3 -c 'import json,sys; l=json.load(sys.stdin); print(l[0]["id"] if l else "")')
  [ -n "$id" ] && break
  sleep 0.1
done
if [ -z "$id" ]; then
  fail "no incident appeared"
else
  curl -sS "${URL}incidents/$id?format=json" >"$WORK/incident.json"
  n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["processes"]))' "$WORK/incident.json")
  if [ "$n" -ge 10 ]; then pass "the incident file holds $n process frames"; else fail "the incident holds $n process frames"; fi
fi
kill "$SECRET_PID" 2>/dev/null || true
stop_daemon
expect_eq "$STOP_STATUS" 0 "daemon exits 0"
finish
