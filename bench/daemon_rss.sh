#!/usr/bin/env bash
# RSS of `flightrec daemon` with the default config once its ring is full. The default ring spans
# 10 minutes, so by default this runs 10.5 minutes; pass a shorter buffer.duration (e.g. 1m) to
# see the same shape sooner (the figure then is for that config, and says so).
# usage: bench/daemon_rss.sh path/to/flightrec [buffer.duration]
set -euo pipefail
flightrec=${1:?usage: $0 path/to/flightrec [buffer.duration]}
duration=${2:-10m}
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
printf 'buffer:\n  duration: %s\n' "$duration" >"$work/flightrec.yaml"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$flightrec" daemon --config.file="$work/flightrec.yaml" --web.listen-address="127.0.0.1:$port" \
  2>"$work/log" &
pid=$!
seconds=$(python3 -c "
import re, sys
m = {'s': 1, 'm': 60, 'h': 3600}
print(sum(float(n) * m[u] for n, u in re.findall(r'([0-9.]+)([smh])', sys.argv[1])))" "$duration")
wait_s=$(awk -v s="$seconds" 'BEGIN { printf "%d", s * 1.05 + 15 }')
echo "recording for ${wait_s}s (buffer.duration=$duration) ..."
sleep "$wait_s"
metric() { curl -s "http://127.0.0.1:$port/metrics" | awk -v m="$1" '$1 == m { print $2 }'; }
rss_kb=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
hwm_kb=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
printf 'ring: span %.0f s, %.1f MB held, %.1f MB encoded, %.4f bytes/value, %s blocks dropped\n' \
  "$(metric flightrec_ring_span_seconds)" "$(awk -v b="$(metric flightrec_ring_bytes)" 'BEGIN { print b / 1e6 }')" \
  "$(awk -v b="$(metric flightrec_ring_encoded_bytes)" 'BEGIN { print b / 1e6 }')" \
  "$(metric flightrec_ring_encoded_bytes_per_value)" "$(metric flightrec_ring_dropped_blocks_total)"
printf 'process ring: %s frames of %s processes, %.1f MB held\n' \
  "$(metric flightrec_process_ring_frames)" "$(metric flightrec_process_tier_processes)" \
  "$(awk -v b="$(metric flightrec_process_ring_bytes)" 'BEGIN { print b / 1e6 }')"
echo "daemon RSS: $((rss_kb / 1024)) MiB now, $((hwm_kb / 1024)) MiB peak"
