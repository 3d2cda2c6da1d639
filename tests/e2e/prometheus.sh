#!/usr/bin/env bash
# A real Prometheus (Debian's package) scrapes flightrec every second on loopback. The test checks
# through Prometheus's HTTP API that the target is up, that OpenMetrics was negotiated, and that a
# 50 ms CPU burst made between two scrapes shows in the window max and in the per-tick histogram
# while the window mean stays low: the spike is not averaged away.
source "$(dirname "$0")/lib.sh"
# burn_cpu MS: every CPU busy for MS milliseconds.
burn_cpu() {
  local pids=() n
  for n in $(seq "$(nproc)"); do
    python3 -c "import time
end = time.monotonic() + $1 / 1000
while time.monotonic() < end: pass" &
    pids+=($!)
  done
  wait "${pids[@]}"
}

# The process tier is off: this test is about the system series' spikes through Prometheus, and
# with it on, about one run in four here found the machine busy (window mean ~0.55) for over a
# minute while Prometheus scraped every second (not root-caused yet; see the always-on-cost issue).
printf 'processes:\n  enabled: false\nexport:\n  window: 2s\nincidents:\n  dir: %s/incidents\n' "$WORK" >"$WORK/flightrec.yaml"
start_daemon --config.file="$WORK/flightrec.yaml"
target=${URL#http://}
target=${target%/}

start_prometheus "$target"

# Quiet first, so the burst is what moves the window: the 2 s window's max below 0.9 and its mean
# below 0.2 on two polls 0.5 s apart. The mean checked after the burst is the largest over 4 s, which
# reaches back to windows that ended 0.5 s before the burst: load from start-up (Prometheus itself)
# still inside them would count against it. (The test runs alone under ctest; on a machine that
# stays busy for a minute it cannot show anything.)
quiet=""
calm=""
quiet_polls=0
curls=0
for _ in $(seq 120); do
  curls=$((curls + 1))
  page=$(curl -s "${URL}metrics")
  quiet=$(sed -n 's/^flightrec_cpu_busy_ratio{cpu="total",window="2s",agg="max"} //p' <<<"$page")
  calm=$(sed -n 's/^flightrec_cpu_busy_ratio{cpu="total",window="2s",agg="mean"} //p' <<<"$page")
  if awk -v m="${quiet:-1}" -v a="${calm:-1}" 'BEGIN { exit !(m < 0.9 && a < 0.2) }'; then
    quiet_polls=$((quiet_polls + 1))
    [ "$quiet_polls" -ge 2 ] && break
  else
    quiet_polls=0
  fi
  sleep 0.5
done
if [ "$quiet_polls" -lt 2 ]; then
  fail "the machine never went quiet (window max $quiet, mean $calm for 60 s): something else is using the CPUs"
fi
before=$(prom_value 'flightrec_cpu_busy_tick_ratio_count{cpu="total"} - ignoring(le) flightrec_cpu_busy_tick_ratio_bucket{cpu="total",le="0.75"}')
echo "window max before the burst: $quiet, mean $calm; ticks above 0.75 so far: $before"

burn_cpu 50
sleep 3.5  # at least two scrapes after the burst

peak=$(prom_value 'max_over_time(flightrec_cpu_busy_ratio{cpu="total",agg="max"}[4s])')
mean=$(prom_value 'max_over_time(flightrec_cpu_busy_ratio{cpu="total",agg="mean"}[4s])')
after=$(prom_value 'flightrec_cpu_busy_tick_ratio_count{cpu="total"} - ignoring(le) flightrec_cpu_busy_tick_ratio_bucket{cpu="total",le="0.75"}')
echo "after the burst: window max $peak, window mean $mean, ticks above 0.75: $after"
if awk -v p="$peak" 'BEGIN { exit !(p >= 0.9) }'; then pass "the burst shows in the window max ($peak)"; else fail "window max $peak < 0.9"; fi
if awk -v m="$mean" 'BEGIN { exit !(m <= 0.4) }'; then pass "the window mean stays low ($mean)"; else fail "window mean $mean > 0.4"; fi
if awk -v a="$after" -v b="$before" 'BEGIN { exit !(a - b >= 20) }'; then
  pass "the histogram counted the burst's ticks above 0.75 ($before -> $after)"
else
  fail "histogram ticks above 0.75 went $before -> $after (want +20)"
fi

om=$(prom_value 'flightrec_scrapes_total{format="openmetrics-1.0.0"}')
if awk -v n="$om" 'BEGIN { exit !(n >= 2) }'; then pass "Prometheus negotiated OpenMetrics ($om scrapes)"; else fail "OpenMetrics scrapes: $om"; fi
text=$(curl -s "${URL}metrics" | sed -n 's/^flightrec_scrapes_total{format="text-0.0.4"} //p')
expect_eq "$text" "$curls" "text 0.0.4 went only to this test's own curl requests"
expect_eq "$(prom_value 'count(flightrec_sampler_ticks_total) or vector(0)')" 1 "self-metrics are ingested"

stop_prometheus
stop_daemon
expect_eq "$STOP_STATUS" 0 "daemon exits 0"
finish
