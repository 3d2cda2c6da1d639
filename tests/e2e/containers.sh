#!/usr/bin/env bash
# The container tier: off without a cgroup hierarchy or when turned off, saying why; then, as
# root, on this host's own cgroups: a cgroup with a 20 ms per 100 ms CFS quota and a busy loop in
# it for 2 s, tracked by containers.match.path_regex. /metrics names it, its throttled periods
# and seconds agree with its cpu.stat, the largest throttled share of one period in the window is
# over 0.5 (the loop runs 20 ms and waits 80 ms of each period), promtool accepts the families in
# both formats, /dump holds its container frames (and with eBPF its throttling episodes, whose
# throttled time is cpu.stat's), and a reload changes export.top_containers. The cgroup is removed whatever
# happens.
source "$(dirname "$0")/lib.sh"

# Without a cgroup hierarchy, or turned off, the daemon runs without the tier and says why once.
mkdir "$WORK/no-cgroups"
start_daemon --path.cgroupfs="$WORK/no-cgroups"
expect_contains "$(grep 'container tier' "$WORK/daemon.log")" \
  "msg=\"container tier off\" reason=\"$WORK/no-cgroups" "no hierarchy: the tier is off, and the log says why"
expect_eq "$(grep -c '^flightrec_container' <<<"$(curl -s "${URL}metrics")" || true)" 0 \
  "... and /metrics has no container family"
stop_daemon
printf 'incidents:\n  dir: %s/incidents\ncontainers:\n  enabled: false\n' "$WORK" >"$WORK/off.yaml"
start_daemon --config.file="$WORK/off.yaml"
expect_contains "$(grep 'container tier' "$WORK/daemon.log")" \
  'msg="container tier off" reason="containers.enabled is false"' "containers.enabled: false says so"
stop_daemon

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: making a cgroup needs root"
  exit 77
fi

CGROUPFS=/sys/fs/cgroup
NAME="flightrec-e2e-$$"
# Where the cgroup is made: the cpu controller's v1 hierarchy (co-mounted as cpu,cpuacct or on
# its own, then with cpuacct's beside it), with memory's; or the v2 tree.
CGROUP_DIRS=()
if [ -f "$CGROUPFS/cpu,cpuacct/cgroup.procs" ]; then
  CPU_DIR="$CGROUPFS/cpu,cpuacct/$NAME"
  CGROUP_DIRS+=("$CPU_DIR")
elif [ -f "$CGROUPFS/cpu/cgroup.procs" ]; then
  CPU_DIR="$CGROUPFS/cpu/$NAME"
  CGROUP_DIRS+=("$CPU_DIR")
  [ -f "$CGROUPFS/cpuacct/cgroup.procs" ] && CGROUP_DIRS+=("$CGROUPFS/cpuacct/$NAME")
elif grep -qw cpu "$CGROUPFS/cgroup.subtree_control" 2>/dev/null; then
  CPU_DIR="$CGROUPFS/$NAME"
  CGROUP_DIRS+=("$CPU_DIR")
else
  echo "SKIP: no cgroup hierarchy with the cpu controller under $CGROUPFS"
  exit 77
fi
[ -f "$CGROUPFS/memory/cgroup.procs" ] && CGROUP_DIRS+=("$CGROUPFS/memory/$NAME")
BURNER_PID=""

remove_cgroup() {
  if [ -n "$BURNER_PID" ]; then
    kill -9 "$BURNER_PID" 2>/dev/null || true
    wait "$BURNER_PID" 2>/dev/null || true
  fi
  local dir
  for dir in "${CGROUP_DIRS[@]}"; do
    [ -d "$dir" ] || continue
    # Whatever is still inside goes back to the root first: a cgroup with tasks cannot go.
    while read -r pid; do echo "$pid" >"${dir%/*}/cgroup.procs" 2>/dev/null || true; done \
      <"$dir/cgroup.procs"
    rmdir "$dir" 2>/dev/null || true
  done
}
trap 'remove_cgroup; cleanup' EXIT

for dir in "${CGROUP_DIRS[@]}"; do mkdir "$dir"; done
if [ -f "$CPU_DIR/cpu.cfs_quota_us" ]; then
  echo 100000 >"$CPU_DIR/cpu.cfs_period_us"
  echo 20000 >"$CPU_DIR/cpu.cfs_quota_us"
else
  echo "20000 100000" >"$CPU_DIR/cpu.max"
fi

cat >"$WORK/containers.yaml" <<YAML
incidents:
  dir: $WORK/incidents
processes:
  enabled: false
containers:
  rate: 100ms
  fast_rate: 10ms
  discovery_interval: 200ms
  match:
    runtimes: false
    kubepods: false
    path_regex: '^/$NAME\$'
  names:
    enabled: false
YAML
start_daemon --config.file="$WORK/containers.yaml"
expect_contains "$(cat "$WORK/daemon.log")" 'msg="container tier"' "the daemon logs the container tier"

# The busy loop, moved into every hierarchy's cgroup before it starts spinning.
sh -c 'for dir in "$@"; do echo $$ >"$dir/cgroup.procs"; done
       exec timeout 2 sh -c "while :; do :; done"' burner "${CGROUP_DIRS[@]}" &
BURNER_PID=$!
wait "$BURNER_PID" || true  # timeout's 124
BURNER_PID=""
# Two slow rounds after the loop ended, the tier's reads are the cgroup's final counters.
sleep 0.3

curl -sS "${URL}metrics" >"$WORK/text.prom" || { tail -40 "$WORK/daemon.log" >&2; exit 1; }
labels="{id=\"/$NAME\",name=\"$NAME\",namespace=\"\",pod=\"\",container=\"\",image=\"\"}"
value_of() { sed -n "s/^$1$(sed 's/[][\.*^$/]/\\&/g' <<<"$labels") //p" "$WORK/text.prom"; }
expect_contains "$(cat "$WORK/text.prom")" "flightrec_container_cpu_usage_seconds_total$labels" \
  "/metrics names the cgroup by its path and name"

stat_value() { awk -v key="$1" '$1 == key { print $2 }' "$CPU_DIR/cpu.stat"; }
kernel_throttled=$(stat_value nr_throttled)
if [ -n "$(stat_value throttled_time)" ]; then
  kernel_seconds=$(python3 -c "print($(stat_value throttled_time) / 1e9)")
else
  kernel_seconds=$(python3 -c "print($(stat_value throttled_usec) / 1e6)")
fi
exported_throttled=$(value_of flightrec_container_cpu_cfs_throttled_periods_total)
exported_seconds=$(value_of flightrec_container_cpu_cfs_throttled_seconds_total)
echo "cpu.stat: nr_throttled=$kernel_throttled throttled=${kernel_seconds}s;" \
  "/metrics: $exported_throttled periods, ${exported_seconds}s"
if python3 -c "import sys
k, e = int(sys.argv[1]), float(sys.argv[2] or -1)
sys.exit(0 if k >= 10 and abs(k - e) <= 1 else 1)" "$kernel_throttled" "$exported_throttled"; then
  pass "throttled periods agree with cpu.stat ($exported_throttled, kernel $kernel_throttled)"
else
  fail "throttled periods: /metrics '$exported_throttled', cpu.stat $kernel_throttled"
fi
# Within one period's throttled time: a read in flight as the loop ended may miss the last.
if python3 -c "import sys
k, e = float(sys.argv[1]), float(sys.argv[2] or -1)
sys.exit(0 if k > 0.5 and abs(k - e) <= 0.1 else 1)" "$kernel_seconds" "$exported_seconds"; then
  pass "throttled seconds agree with cpu.stat (${exported_seconds}s, kernel ${kernel_seconds}s)"
else
  fail "throttled seconds: /metrics '$exported_seconds', cpu.stat ${kernel_seconds}s"
fi
ratio=$(value_of flightrec_container_cpu_throttled_ratio_max)
if python3 -c "import sys; sys.exit(0 if float(sys.argv[1] or 0) > 0.5 else 1)" "$ratio"; then
  pass "the largest throttled share of a period is over 0.5 ($ratio)"
else
  fail "flightrec_container_cpu_throttled_ratio_max is '$ratio'"
fi
expect_eq "$(value_of flightrec_container_spec_cpu_quota_seconds)" 0.02 "the quota is 20 ms"
expect_contains "$(cat "$WORK/text.prom")" 'flightrec_containers{state="exported"} 1' \
  "one container is exported"

# The container frames of the burner's window, in /dump's raw recording, converted by `flightrec
# dump`: the cgroup's counters as cpu.stat has them, the fast tier's reads of its periods, and
# with eBPF its throttling episodes, whose throttled time is cpu.stat's.
# The whole buffer (the daemon started just before the burner): on a loaded machine the seconds
# since the burner ended are not known in advance.
curl -sS -o "$WORK/window.flightrec" "${URL}dump?format=raw"
"$FLIGHTREC" dump "$WORK/window.flightrec" --format json >"$WORK/window.json" ||
  fail "flightrec dump of the raw /dump"
episodes_on=false
grep -q 'throttle_episodes=ebpf' "$WORK/daemon.log" && episodes_on=true
frames=$(python3 - "$WORK/window.json" "/$NAME" "$kernel_throttled" "$kernel_seconds" \
  "$episodes_on" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
path, periods, seconds, episodes_on = sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5] == "true"
rows = [(f, r) for f in doc["containers"] for r in f["containers"] if r["path"] == path]
problems = []
if len(rows) < 10:
    problems.append(f"{len(rows)} frames hold the cgroup")
last = rows[-1][1] if rows else {"cpu": {}}
if abs(last["cpu"].get("throttled_periods", -99) - periods) > 1:
    problems.append(f"last frame: {last['cpu'].get('throttled_periods')} throttled periods, cpu.stat {periods}")
if last["cpu"].get("quota_us") != 20000:
    problems.append(f"quota {last['cpu'].get('quota_us')}")
fast = sum(1 for f, r in rows for read in f["fast_reads"]
           if f["containers"][read[1]]["path"] == path)
if fast < 20:
    problems.append(f"{fast} fast reads of the cgroup")
ids = {r["cgroup_id"] for _, r in rows}
episodes = [e for f, _ in rows for e in f["episodes"] if e[0] in ids]
recorded = all(f["episodes_recorded"] == episodes_on for f, _ in rows)
if not recorded:
    problems.append("episodes_recorded does not say whether eBPF ran")
if episodes_on:
    throttled = sum(e[6] for e in episodes)
    refills = sum(e[9] for e in episodes)
    # Each episode as the kernel timed it: together, cpu.stat's growth, within a period's worth.
    if abs(throttled - seconds) > 0.1:
        problems.append(f"episodes: {throttled:.3f}s throttled, cpu.stat {seconds:.3f}s")
    if abs(refills - periods) > 2:
        problems.append(f"episodes: {refills} refills, cpu.stat {periods} throttled periods")
print(f"{len(rows)} frames, {fast} fast reads, {len(episodes)} episodes "
      f"({sum(e[6] for e in episodes):.3f}s throttled)")
for p in problems:
    print("PROBLEM: " + p)
PY
)
echo "container frames of the window: $frames"
if grep -q PROBLEM <<<"$frames"; then
  fail "container frames in /dump: $(grep PROBLEM <<<"$frames" | tr '\n' ' ')"
else
  pass "/dump holds the burner's container frames, its fast reads$([ "$episodes_on" = true ] && echo " and episodes matching cpu.stat")"
fi
# Replay's Containers tab on the same window: the cgroup's row, and its period strip of the last 5 s
# (the burner's 2 s in it), from the episodes or the cpu.stat reads.
replay=$("$FLIGHTREC" replay "$WORK/window.flightrec" --batch --tab containers --at end 2>&1) ||
  fail "replay --tab containers: $replay"
strip=$(grep "^periods   $NAME: " <<<"$replay" || true)
echo "replay: $strip"
if [[ "$strip" =~ :\ ([0-9]+)\ of\ [0-9]+\ (periods|reads).*\(100ms\ periods,\ (episodes|cpu.stat)\)$ ]] &&
  [ "${BASH_REMATCH[1]}" -ge 10 ]; then
  pass "replay's Containers tab shows the cgroup's throttled periods (from ${BASH_REMATCH[3]})"
else
  fail "replay's Containers tab: $(grep -A1 -F "$NAME" <<<"$replay" | tr '\n' ' ')"
fi

lint=$(promtool check metrics <"$WORK/text.prom" 2>&1) || true
expect_eq "$(grep container <<<"$lint" || true)" "" "promtool finds nothing to say of the text 0.0.4"
curl -sS -H 'Accept: application/openmetrics-text;version=1.0.0' "${URL}metrics" >"$WORK/om.txt"
expect_eq "$(tail -1 "$WORK/om.txt")" "# EOF" "OpenMetrics ends with # EOF"
lint=$(promtool check metrics <"$WORK/om.txt" 2>&1) || true
expect_eq "$(grep container <<<"$lint" || true)" "" "promtool finds nothing to say of the OpenMetrics"

docs="$(dirname "$0")/../../docs"
undocumented=""
for family in $(sed -n 's/^# TYPE \(flightrec_container[^ ]*\) .*/\1/p' "$WORK/text.prom" | sort -u); do
  grep -qF "\`$family" "$docs/METRICS.md" || undocumented="$undocumented $family"
done
expect_eq "$undocumented" "" "every container family is in docs/METRICS.md"

# export.top_containers changes live: a reload to 0 exports none and still counts it.
printf 'export:\n  top_containers: 0\n' >>"$WORK/containers.yaml"
kill -HUP "$DAEMON_PID"
for _ in $(seq 50); do
  grep -q 'flightrec_containers{state="exported"} 0' <<<"$(curl -s "${URL}metrics")" && break
  sleep 0.1
done
curl -sS "${URL}metrics" >"$WORK/reloaded.prom"
expect_contains "$(cat "$WORK/reloaded.prom")" 'flightrec_containers{state="tracked"} 1' \
  "after a reload to export.top_containers: 0 the container is still tracked"
expect_eq "$(grep -c '^flightrec_container_cpu_usage_seconds_total' "$WORK/reloaded.prom" || true)" 0 \
  "... and no longer exported"

stop_daemon
expect_eq "$STOP_STATUS" 0 "the daemon stops cleanly"
finish
