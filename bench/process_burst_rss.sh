#!/usr/bin/env bash
# RSS of `flightrec daemon` before, during and after a burst of N processes: the baseline once its
# rings are full, the peak while N more processes (sleeping) are recorded, and what is left once
# they have exited and the rings no longer hold them. One logfmt line, e.g.
#   processes=5000 buffer=10s baseline_mib=25 peak_mib=88 after_mib=31
# (tests/e2e/memory_after_burst.sh reads it). A short buffer.duration (default 10s) lets the rings
# drop the burst soon; with the default 10m the "after" figure needs that long.
# usage: bench/process_burst_rss.sh path/to/flightrec [N] [buffer.duration]
set -euo pipefail
flightrec=${1:?usage: $0 path/to/flightrec [N] [buffer.duration]}
count=${2:-5000}
duration=${3:-10s}
work=$(mktemp -d)
sleepers=""
scraper=""
trap 'kill $sleepers $scraper "$pid" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
printf 'buffer:\n  duration: %s\nincidents:\n  dir: %s/incidents\n' "$duration" "$work" \
  >"$work/flightrec.yaml"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$flightrec" daemon --config.file="$work/flightrec.yaml" --web.listen-address="127.0.0.1:$port" \
  2>"$work/log" &
pid=$!
seconds=$(python3 -c "
import re, sys
m = {'s': 1, 'm': 60, 'h': 3600}
print(sum(float(n) * m[u] for n, u in re.findall(r'([0-9.]+)([smh])', sys.argv[1])))" "$duration")
# A little past the buffer's span: its rings are full, and a burst's blocks have been dropped.
span_s=$(awk -v s="$seconds" 'BEGIN { printf "%d", s * 1.05 + 5 }')
rss_mib() { awk '/^VmRSS/ { printf "%d", $2 / 1024 }' "/proc/$pid/status"; }
processes() { curl -s "http://127.0.0.1:$port/metrics" | awk '$1 == "flightrec_process_tier_processes" { print $2 }'; }

# Scraped every 3 s throughout, as Prometheus would: the scrapes rank the burst's processes too.
(while kill -0 "$pid" 2>/dev/null; do processes >/dev/null; sleep 3; done) &
scraper=$!
sleep "$span_s"
baseline=$(rss_mib)
# N children that each exec sleep: as cheap as a process gets, each with its own command line.
cat >"$work/sleepers.py" <<'PY'
import os, signal, sys
children = []
for i in range(int(sys.argv[1])):
    child = os.fork()
    if child == 0:
        os.execv("/bin/sleep", ["sleep", str(3600 + i)])
    children.append(child)
print("started", flush=True)
sys.stdin.read()  # until the script closes our stdin
for child in children:
    os.kill(child, signal.SIGKILL)
for child in children:
    os.waitpid(child, 0)
PY
mkfifo "$work/hold"
python3 "$work/sleepers.py" "$count" <"$work/hold" >"$work/sleepers.out" &
sleepers=$!
exec 3>"$work/hold"
for _ in $(seq 600); do
  [ "$(processes)" -ge "$count" ] 2>/dev/null && break
  sleep 0.1
done
peak=$baseline
for _ in $(seq "$span_s"); do  # the ring fills with the burst
  sleep 1
  now=$(rss_mib)
  [ "$now" -le "$peak" ] || peak=$now
done
exec 3>&-  # the sleepers are killed and reaped
wait "$sleepers"
sleepers=""
sleep "$span_s"
sleep "$span_s"
echo "processes=$count buffer=$duration baseline_mib=$baseline peak_mib=$peak after_mib=$(rss_mib)"
grep -F 'free memory returned' "$work/log" || true
