#!/usr/bin/env bash
# CPU per scrape and scrape latency, flightrec vs Debian's prometheus-node-exporter (default
# collectors), both running on this machine at the same time; and flightrec's tick lateness p99
# with and without a scrape storm. CPU per scrape: node_exporter's whole process CPU clock (it does
# nothing between scrapes); flightrec's own flightrec_scrape_cpu_seconds_total, the CPU its HTTP
# threads spend answering /metrics (its sampler and recorder run whether or not anyone scrapes). Latency is curl's own per-transfer time_total, for one scraper
# at a time (150 ms apart), and for 10 scrapers that all scrape at once every 200 ms
# (ten Prometheus servers, a hundred times faster than usual). Requests ask for OpenMetrics and gzip
# as Prometheus does. flightrec's scrape CPU is that of its HTTP worker threads only
# usage: bench/scrape_vs_node_exporter.sh path/to/flightrec [scrapes]
set -euo pipefail
flightrec=${1:?usage: $0 path/to/flightrec [scrapes]}
scrapes=${2:-200}
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Exact CPU ns of a whole process: its CPU clock (/proc/<pid>/stat is sampled per timer tick and
# misses sub-millisecond bursts).
process_cpu_ns() { python3 -c "import sys, time; print(time.clock_gettime_ns(((~int(sys.argv[1])) << 3) | 2))" "$1"; }
flightrec_scrape_cpu_ns() {
  curl -s "http://127.0.0.1:$fr_port/metrics" |
    awk '/^flightrec_scrape_cpu_seconds_total / { printf "%d\n", $2 * 1e9 }'
}

fr_port=$(free_port)
"$flightrec" daemon --web.listen-address="127.0.0.1:$fr_port" 2>"$work/flightrec.log" &
fr_pid=$!; pids+=("$fr_pid")
ne_port=$(free_port)
prometheus-node-exporter --web.listen-address="127.0.0.1:$ne_port" 2>"$work/ne.log" &
ne_pid=$!; pids+=("$ne_pid")
sleep 2

lateness_buckets() {
  curl -s "http://127.0.0.1:$fr_port/metrics" |
    sed -n 's/^flightrec_sampler_tick_lateness_seconds_bucket{le="\([^"]*\)"} \(.*\)/\1 \2/p'
}
# p99 upper bound (ms) from the difference of two cumulative bucket dumps.
p99_between() {
  paste "$1" "$2" | awk '{ le[NR] = $1; d[NR] = $4 - $2 } END {
    total = d[NR]; for (i = 1; i <= NR; i++) if (d[i] >= 0.99 * total) { print (le[i] == "+Inf" ? "inf" : le[i] * 1000); exit } }'
}

lateness_buckets >"$work/l0"; sleep 10; lateness_buckets >"$work/l1"
quiet_p99=$(p99_between "$work/l0" "$work/l1")

accept='application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'
# p50 and p99 in ms of the time_total values (seconds, one a line) on stdin.
percentiles() {
  sort -n | awk '{ v[NR] = $1 * 1000 } END { i = int(NR * 0.99) + 1; if (i > NR) i = NR
    printf "%.2f %.2f\n", v[int(NR * 0.5) + 1], v[i] }'
}
# scrape_sequential PORT N: N scrapes one after another, 150 ms apart so that every one renders
# afresh (flightrec reuses a body for 100 ms; real scrapes are seconds apart).
scrape_sequential() {
  local i
  for i in $(seq "$2"); do
    curl -s -H "Accept: $accept" -H 'Accept-Encoding: gzip' -w '%{time_total}\n' -o /dev/null \
      "http://127.0.0.1:$1/metrics"
    sleep 0.15
  done | percentiles
}
# scrape_concurrent PORT ROUNDS: each round, 10 scrapes at once, then 200 ms apart.
scrape_concurrent() {
  local urls=() r
  for r in $(seq 10); do urls+=(-o /dev/null "http://127.0.0.1:$1/metrics"); done
  for r in $(seq "$2"); do
    curl -s --no-progress-meter --parallel --parallel-immediate --parallel-max 10 -H "Accept: $accept" \
      -H 'Accept-Encoding: gzip' -w '%{time_total}\n' "${urls[@]}"
    sleep 0.2
  done | percentiles
}

measure() {  # name port cpu-reader
  local name=$1 port=$2 cpu=$3 before after size
  size=$(curl -s "http://127.0.0.1:$port/metrics" | wc -c)
  before=$($cpu)
  read -r p50 p99 < <(scrape_sequential "$port" "$scrapes")
  after=$($cpu)
  # flightrec's reader is itself a scrape: one more than counted, so its figure errs high.
  cpu_ms=$(awk -v t=$((after - before)) -v n="$scrapes" 'BEGIN { printf "%.3f", t / 1e6 / n }')
  read -r c50 c99 < <(scrape_concurrent "$port" "$((scrapes / 10))")
  printf '%-16s %9s %12s %10s %10s %14s %14s\n' "$name" "$size" "$cpu_ms" "$p50" "$p99" "$c50" "$c99"
  eval "${name//-/_}_cpu=$cpu_ms"
}

printf '%-16s %9s %12s %10s %10s %14s %14s\n' target body_bytes cpu_ms/scrape p50_ms p99_ms p50_ms@10x p99_ms@10x
lateness_buckets >"$work/s0"
measure flightrec "$fr_port" flightrec_scrape_cpu_ns
lateness_buckets >"$work/s1"
measure node_exporter "$ne_port" "process_cpu_ns $ne_pid"
storm_p99=$(p99_between "$work/s0" "$work/s1")
awk -v a="$node_exporter_cpu" -v b="$flightrec_cpu" 'BEGIN { if (b > 0) printf "node_exporter / flightrec CPU per scrape: %.1fx (target >= 5x)\n", a / b; else print "flightrec CPU per scrape below clock resolution" }'
echo "sampler tick lateness p99: ${quiet_p99} ms quiet, ${storm_p99} ms during the scrape storm (bucket upper bounds)"
