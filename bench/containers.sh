#!/usr/bin/env bash
# What the container tier costs, in one run on this machine: N cgroups that flightrec takes for
# Docker containers (cgroupfs driver: /<bench>/docker/<64 hex>, in every hierarchy the tier reads),
# each with a sleeping process, and BUSY of them running a busy loop held to a CFS quota (so they
# are throttled every period, which is what the tier's fast rate is for). Then:
#  1. CPU, side by side: two daemons at the same time, `off` (the defaults with
#     containers.enabled: false) and `on` (the defaults), for SECONDS after a warm-up. Each
#     daemon's CPU is the scheduler's exact on-CPU time of all its threads
#     (/proc/<pid>/task/*/schedstat, ns; utime+stime only move in 10 ms ticks) plus its BPF
#     programs' run time (flightrec_bpf_run_seconds_total, which no thread's time includes), as %
#     of one core. Running both at once puts the machine's other load on both alike; each is
#     scraped every 15 s, as Prometheus would, and the per-15 s differences give the spread.
#  2. Contention: the latency of another reader's preads of one busy container's cpu.stat
#     (bench_cgroup_read_latency: p50 and p99 of READS back-to-back reads). `without`: no daemon,
#     before the daemons start and after they stop (the mean of the two); then, `on` alone,
#     CYCLES pairs of `stopped` (the daemon held by SIGSTOP: none of its reads, its BPF programs
#     still attached) and `with` (running), for pairs close in time on this shared machine. The
#     ratios: `with` (median) over `without`, and the median of each pair's `with` / `stopped`.
#  3. For the scaling table: the `on` daemon's series of the container families
#     (flightrec_container_*), all its series, its open descriptors and RSS.
# A flightrec built before the container tier has no `containers` key: both daemons then run
# today's defaults (tier=absent), which measures the method's own noise. --off and --on replace
# the YAML each daemon gets besides its incidents dir (e.g. --on $'containers:\n  rate: 1s').
# Output: '#' lines for people, then one logfmt line (tests/e2e/container_bench.sh reads it).
# Everything made is removed however the script ends (Ctrl-C included); only SIGKILL leaves the
# cgroups (<hierarchy>/flightrec-cbench-<pid>) and their processes behind.
# Needs root (it makes cgroups and moves processes). On a cgroup v2 host the bench's cgroups get
# the cpu, memory, pids and io controllers where the root offers them.
# usage: bench/containers.sh path/to/flightrec [--containers N] [--busy N] [--quota-us US]
#          [--seconds S] [--warmup S] [--reads N] [--cycles N] [--cgroupfs DIR] [--off YAML]
#          [--on YAML]
set -euo pipefail
usage="usage: $0 path/to/flightrec [--containers N] [--busy N] [--quota-us US] [--seconds S] [--warmup S] [--reads N] [--cycles N] [--cgroupfs DIR] [--off YAML] [--on YAML]"
flightrec=$(realpath "${1:?$usage}")
shift
containers=300
busy=20
# 20 busy loops on this 2-vCPU machine: 2 ms per 100 ms each keeps them throttled every period
# while taking 0.4 of a core in all (at 20 ms each they would ask for 4 cores, get 2, and the CPU
# shortage rather than the quota would hold them).
quota_us=2000
period_us=100000
seconds=60
warmup=15
reads=100000
cycles=10
cgroupfs=/sys/fs/cgroup
off_yaml=""
on_yaml=""
given_yaml=0
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || { echo "$1 needs a value; $usage" >&2; exit 2; }
  case $1 in
    --containers) containers=$2 ;;
    --busy) busy=$2 ;;
    --quota-us) quota_us=$2 ;;
    --seconds) seconds=$2 ;;
    --warmup) warmup=$2 ;;
    --reads) reads=$2 ;;
    --cycles) cycles=$2 ;;
    --cgroupfs) cgroupfs=$2 ;;
    --off) off_yaml=$2; given_yaml=1 ;;
    --on) on_yaml=$2; given_yaml=1 ;;
    *) echo "unknown option $1; $usage" >&2; exit 2 ;;
  esac
  shift 2
done
for name in containers busy quota_us seconds warmup reads cycles; do
  [[ ${!name} =~ ^[0-9]+$ ]] || { echo "--${name/_/-} must be a whole number, got '${!name}'" >&2; exit 2; }
done
[ "$containers" -ge 1 ] && [ "$containers" -le 10000 ] || { echo "--containers must be 1..10000, got $containers" >&2; exit 2; }
[ "$busy" -le "$containers" ] || { echo "--busy ($busy) must not exceed --containers ($containers)" >&2; exit 2; }
[ "$quota_us" -ge 1000 ] && [ "$quota_us" -le "$period_us" ] || { echo "--quota-us must be 1000..$period_us, got $quota_us" >&2; exit 2; }
[ "$seconds" -ge 1 ] && [ "$reads" -ge 1 ] && [ "$cycles" -ge 1 ] || { echo "--seconds, --reads and --cycles must be at least 1" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "$0 needs root: it makes cgroups and moves processes into them" >&2; exit 2; }
latency_tool=$(dirname "$flightrec")/bench/bench_cgroup_read_latency
[ -x "$latency_tool" ] || { echo "$latency_tool is missing: cmake --build BUILD --target bench_cgroup_read_latency" >&2; exit 2; }

if [ "$given_yaml" = 1 ]; then
  tier=given
elif grep -q '^containers:' <<<"$("$flightrec" check-config --print-defaults)"; then
  tier=on
  off_yaml=$'containers:\n  enabled: false'
else
  tier=absent
fi

bench=flightrec-cbench-$$
work=$(mktemp -d)
hierarchies=()  # every hierarchy the bench's cgroups are made in
made=()         # the bench's cgroup directories, parents first
procs=()        # the containers' processes
off_pid=""
on_pid=""
pause_pid=""

# stop_daemon VAR: stops the daemon whose pid VAR holds, and empties VAR.
stop_daemon() {
  local pid=${!1}
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    kill -CONT "$pid" 2>/dev/null || true  # one held by SIGSTOP acts on the TERM only then
    wait "$pid" 2>/dev/null || true
  fi
  printf -v "$1" '%s' ""
}
cleanup() {
  trap '' INT TERM  # a second Ctrl-C must not cut the cleanup short
  [ -z "$pause_pid" ] || kill "$pause_pid" 2>/dev/null || true
  stop_daemon off_pid
  stop_daemon on_pid
  if [ ${#procs[@]} -gt 0 ]; then
    kill -KILL "${procs[@]}" 2>/dev/null || true
    wait "${procs[@]}" 2>/dev/null || true
  fi
  # Children first; a cgroup whose last process was just reaped may stay busy for a moment.
  local i
  for ((i = ${#made[@]} - 1; i >= 0; i--)); do
    for _ in $(seq 50); do
      rmdir "${made[$i]}" 2>/dev/null && break
      [ -d "${made[$i]}" ] || break
      sleep 0.1
    done
    [ ! -d "${made[$i]}" ] || echo "warning: could not remove ${made[$i]}" >&2
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# pause SECONDS: sleeps, but lets a signal's trap run at once (a foreground sleep would delay it).
pause() {
  sleep "$1" &
  pause_pid=$!
  wait "$pause_pid" || true
  pause_pid=""
}

# --- the cgroups -------------------------------------------------------------------------------
# The hierarchies the tier reads: v2's one, or on a hybrid (v1) host those of cpu, cpuacct,
# memory, pids and blkio (co-mounted ones once, whatever name or alias they are mounted under)
# and unified/ for PSI. cpu_root is the one whose cpu controller takes the quota.
add_hierarchy() {
  local dir known
  dir=$(realpath "$1")
  for known in "${hierarchies[@]}"; do [ "$known" != "$dir" ] || return 0; done
  hierarchies+=("$dir")
}
cpu_root=""
if [ -e "$cgroupfs/cgroup.controllers" ]; then
  layout=unified
  add_hierarchy "$cgroupfs"
  cpu_root=$(realpath "$cgroupfs")
else
  layout=hybrid
  for controller in cpu cpuacct memory pids blkio; do
    for dir in "$cgroupfs"/*; do
      [ -d "$dir" ] && [ -e "$dir/cgroup.procs" ] || continue
      [[ ,$(basename "$dir"), == *,$controller,* ]] || continue
      add_hierarchy "$dir"
      [ "$controller" != cpu ] || [ -n "$cpu_root" ] || cpu_root=$(realpath "$dir")
      break
    done
  done
  [ ! -e "$cgroupfs/unified/cgroup.procs" ] || add_hierarchy "$cgroupfs/unified"
fi
[ ${#hierarchies[@]} -gt 0 ] || { echo "no cgroup hierarchy under $cgroupfs (looked for cgroup.controllers, or cpu, cpuacct, memory, pids, blkio)" >&2; exit 2; }

# Ids: 64 hex digits, as Docker's are; derived from the run so two runs never share one.
mapfile -t ids < <(python3 -c '
import hashlib, sys
for i in range(int(sys.argv[2])):
    print(hashlib.sha256(f"{sys.argv[1]}-{i}".encode()).hexdigest())' "$bench" "$containers")

# hand_down DIR: on v2, the controllers DIR's children get: those of cpu, memory, pids and io that
# DIR has (a child has only what its parent hands down). The root's own are left as they are.
hand_down() {
  local controller
  for controller in cpu memory pids io; do
    [[ " $(cat "$1/cgroup.controllers") " == *" $controller "* ]] || continue
    echo "+$controller" >"$1/cgroup.subtree_control"
  done
}
if [ "$layout" = unified ] && [[ " $(cat "$cgroupfs/cgroup.subtree_control") " != *" cpu "* ]]; then
  echo "warning: $cgroupfs does not hand the cpu controller down: the busy containers run unthrottled" >&2
fi
for root in "${hierarchies[@]}"; do
  mkdir "$root/$bench"
  made+=("$root/$bench")
  mkdir "$root/$bench/docker"
  made+=("$root/$bench/docker")
  if [ "$layout" = unified ]; then
    hand_down "$root/$bench"
    hand_down "$root/$bench/docker"
  fi
  leaves=("${ids[@]/#/$root/$bench/docker/}")
  made+=("${leaves[@]}")
  mkdir "${leaves[@]}"
done

# set_quota DIR: the busy containers' CFS quota, v1 or v2.
set_quota() {
  if [ -e "$1/cpu.max" ]; then
    echo "$quota_us $period_us" >"$1/cpu.max"
  elif [ -e "$1/cpu.cfs_quota_us" ]; then
    echo "$period_us" >"$1/cpu.cfs_period_us"
    echo "$quota_us" >"$1/cpu.cfs_quota_us"
  else
    echo "warning: no cpu controller for $1: the busy containers run unthrottled" >&2
  fi
}
# enter PID ID: moves PID into the container's cgroup in every hierarchy.
enter() {
  local root
  for root in "${hierarchies[@]}"; do echo "$1" >"$root/$bench/docker/$2/cgroup.procs"; done
}
for ((i = 0; i < containers; i++)); do
  id=${ids[$i]}
  if [ "$i" -lt "$busy" ]; then
    set_quota "$cpu_root/$bench/docker/$id"
    sh -c 'while :; do :; done' &
  else
    sleep infinity &
  fi
  procs+=($!)
  enter "$!" "$id"
done
test_cgroup=$cpu_root/$bench/docker/${ids[0]}  # busy when there are busy ones: read fast

# --- the daemons -------------------------------------------------------------------------------
# The tier holds ~17 descriptors per container on v1 (docs/CONTAINERS.md): at 1,000 containers
# more than a 20,000 hard limit leaves beside the process tier's. The daemon raises its soft limit
# to the hard one; this raises the hard one to systemd's default for services (524288).
nofile=$(ulimit -Hn)
if [ "$nofile" != unlimited ] && [ "$nofile" -lt 524288 ]; then
  if (ulimit -Hn 524288) 2>/dev/null; then
    ulimit -Hn 524288
    echo "# descriptors: hard limit raised from $nofile to 524288 (systemd's default for services)"
  else
    echo "# descriptors: hard limit $nofile (raising it is not permitted here)"
  fi
fi

# start_daemon NAME YAML: a daemon with YAML and its own incidents dir on a free loopback port;
# sets NAME_pid and NAME_url.
start_daemon() {
  printf 'incidents:\n  dir: %s/incidents-%s\n%s\n' "$work" "$1" "$2" >"$work/$1.yaml"
  : >"$work/$1.log"
  "$flightrec" daemon --config.file="$work/$1.yaml" --web.listen-address=127.0.0.1:0 \
    --path.cgroupfs="$cgroupfs" 2>"$work/$1.log" &
  local pid=$! url=""
  printf -v "$1_pid" '%s' "$pid"
  for _ in $(seq 400); do
    url=$(sed -n 's/.*msg=listening url=\([^ ]*\).*/\1/p' "$work/$1.log" | head -1)
    [ -z "$url" ] || break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  if [ -z "$url" ]; then
    echo "the $1 daemon did not start; its log:" >&2
    cat "$work/$1.log" >&2
    exit 1
  fi
  printf -v "$1_url" '%s' "$url"
}
# scrape NAME FILE: the daemon's /metrics into FILE.
scrape() {
  local url_var=$1_url
  curl -sf --max-time 10 "${!url_var}metrics" >"$2" || { echo "the $1 daemon's /metrics failed" >&2; exit 1; }
}
# cpu_ns PID: on-CPU ns of all the process's threads so far. "%.0f", not "%d": mawk's %d stops at
# 2^31-1, 2.1 s, which a daemon passes within a minute (its figures then fell to ~0.4 %).
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }'; }
# machine_jiffies: "<all> <steal>" of /proc/stat's cpu line (guest time is inside user already).
machine_jiffies() { awk '/^cpu / { t = 0; for (i = 2; i <= 9; i++) t += $i; print t, $9; exit }' /proc/stat; }
# bpf_ns FILE: the BPF programs' run time in a scrape, ns.
# tier_ns FILE TIER: the container tier's own count of its TIER's (slow, fast) reads' CPU time in a
# scrape, ns: where the tier's cost goes, and a check on the on daemon's figure, which holds both.
tier_ns() { awk -v tier="$2" '/^flightrec_container_tier_read_cpu_seconds_total/ && index($0, "tier=\"" tier "\"") { t += $2 } END { printf "%.0f\n", t * 1e9 }' "$1"; }
bpf_ns() { awk '/^flightrec_bpf_run_seconds_total/ { t += $2 } END { printf "%.0f\n", t * 1e9 }' "$1"; }
# field LINE NAME: NAME's value in a logfmt line.
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $1"; }
# latency LABEL: one run of the latency tool on the test cgroup's cpu.stat; appends
# "LABEL p50 p99" to $work/latency.
latency() {
  local line
  line=$("$latency_tool" "$test_cgroup/cpu.stat" --reads "$reads")
  echo "# cpu.stat latency, $1: $line"
  echo "$1 $(field "$line" p50_ns) $(field "$line" p99_ns)" >>"$work/latency"
}

echo "# $(nproc) CPUs, $(uname -r), $layout cgroups ($(for root in "${hierarchies[@]}"; do basename "$root"; done | xargs)), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $containers containers under /$bench/docker, $busy busy at ${quota_us}/${period_us} us; ${seconds} s after a ${warmup} s warm-up"
case $tier in
  on) echo "# off: containers.enabled: false; on: the defaults" ;;
  absent) echo "# this flightrec has no container tier: both daemons run its defaults (the method's noise)" ;;
  given) echo "# off and on: the YAML given with --off and --on" ;;
esac

pause 2  # the containers' processes have started
# Not reported: the first pass over a file reads slower (measured: ~1.5x at p50) whatever runs.
"$latency_tool" "$test_cgroup/cpu.stat" --reads "$reads" >/dev/null
latency without

start_daemon off "$off_yaml"
start_daemon on "$on_yaml"
pause "$warmup"
slice=15
slices=$(((seconds + slice - 1) / slice))
declare -a off_ns on_ns off_bpf on_bpf on_slow on_fast
for ((s = 0; s <= slices; s++)); do
  if [ "$s" -gt 0 ]; then pause $((s < slices ? slice : seconds - (slices - 1) * slice)); fi
  scrape off "$work/off.metrics"
  scrape on "$work/on.metrics"
  off_bpf[s]=$(bpf_ns "$work/off.metrics")
  on_bpf[s]=$(bpf_ns "$work/on.metrics")
  on_slow[s]=$(tier_ns "$work/on.metrics" slow)
  on_fast[s]=$(tier_ns "$work/on.metrics" fast)
  off_ns[s]=$(cpu_ns "$off_pid")
  on_ns[s]=$(cpu_ns "$on_pid")
  stamp[s]=$(date +%s%N)
  machine[s]=$(machine_jiffies)
done
fds_on=$(find /proc/"$on_pid"/fd -mindepth 1 -maxdepth 1 | wc -l)
rss() { awk '/^VmRSS/ { printf "%d", $2 / 1024 }' /proc/"$1"/status; }
rss_off=$(rss "$off_pid")
rss_on=$(rss "$on_pid")
stop_daemon off_pid
for ((c = 0; c < cycles; c++)); do
  kill -STOP "$on_pid"
  pause 0.2
  latency stopped
  kill -CONT "$on_pid"
  pause 0.5  # back to its rates
  latency with
done
stop_daemon on_pid
pause 1
latency without

# pct A B NS_ARRAY BPF_ARRAY: % of one core between slices A and B, process and BPF together.
pct() {
  local -n ns=$3 bpf=$4
  awk -v n=$((ns[$2] - ns[$1] + bpf[$2] - bpf[$1])) -v t=$((stamp[$2] - stamp[$1])) \
    'BEGIN { printf "%.2f", n / t * 100 }'
}
# steal A B: the hypervisor's share of the machine between slices A and B, %: a vCPU the host
# deschedules runs neither daemon, so a slice with steal says less.
steal() {
  echo "${machine[$1]} ${machine[$2]}" | awk '{ printf "%.2f", ($3 > $1) ? ($4 - $2) / ($3 - $1) * 100 : 0 }'
}
# span_pct ARRAY: an ns counter's growth over the whole span, as % of one core.
span_pct() {
  local -n counter=$1
  awk -v n=$((counter[slices] - counter[0])) -v t=$((stamp[slices] - stamp[0])) 'BEGIN { printf "%.2f", n / t * 100 }'
}
echo "# % of one core (threads + BPF) per ~${slice} s: off, on, on - off (and the host's steal)"
deltas=()
for ((s = 1; s <= slices; s++)); do
  a=$(pct $((s - 1)) "$s" off_ns off_bpf)
  b=$(pct $((s - 1)) "$s" on_ns on_bpf)
  deltas+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b - a }')")
  echo "#   $s: $a $b ${deltas[-1]} (steal $(steal $((s - 1)) "$s") %)"
done
off_pct=$(pct 0 "$slices" off_ns off_bpf)
on_pct=$(pct 0 "$slices" on_ns on_bpf)
delta=$(awk -v a="$off_pct" -v b="$on_pct" 'BEGIN { printf "%.2f", b - a }')
spread=$(printf '%s\n' "${deltas[@]}" | sort -g | sed -n '1p;$p' | xargs)
series=$(grep -c '^flightrec_container_' "$work/on.metrics" || true)
lines_off=$(grep -vc '^#' "$work/off.metrics" || true)
lines_on=$(grep -vc '^#' "$work/on.metrics" || true)
budget_off=$(grep -c 'sampler.cpu_budget: over budget' "$work/off.log" || true)
budget_on=$(grep -c 'sampler.cpu_budget: over budget' "$work/on.log" || true)
if [ "$tier" = on ] && [ "$series" -eq 0 ]; then
  echo "warning: the on daemon exports no flightrec_container_ series: did it find the containers?" >&2
fi
median() { sort -g | awk '{ v[NR] = $1 } END { printf "%.0f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# latency_figures NAME COLUMN: NAME's figures from the latency runs' COLUMN (2: p50, 3: p99).
latency_figures() {
  local without stopped with paired
  without=$(awk -v c="$2" '$1 == "without" { s += $c; n++ } END { printf "%.0f", s / n }' "$work/latency")
  stopped=$(awk -v c="$2" '$1 == "stopped" { print $c }' "$work/latency" | median)
  with=$(awk -v c="$2" '$1 == "with" { print $c }' "$work/latency" | median)
  # Each `with` over the `stopped` just before it, x1000 for the integer median.
  paired=$(awk -v c="$2" '$1 == "stopped" { s = $c } $1 == "with" { printf "%.0f\n", $c / s * 1000 }' \
    "$work/latency" | median)
  echo "${1}_without_ns=$without ${1}_stopped_ns=$stopped ${1}_with_ns=$with" \
    "${1}_ratio=$(awk -v w="$with" -v o="$without" 'BEGIN { printf "%.3f", w / o }')" \
    "${1}_paired_ratio=$(awk -v p="$paired" 'BEGIN { printf "%.3f", p / 1000 }')"
}
echo "containers=$containers busy=$busy layout=$layout tier=$tier seconds=$seconds" \
  "off_pct=$off_pct on_pct=$on_pct delta_pct=$delta delta_spread_pct=${spread// /..} steal_pct=$(steal 0 "$slices")" \
  "off_bpf_pct=$(span_pct off_bpf) on_bpf_pct=$(span_pct on_bpf) tier_slow_pct=$(span_pct on_slow) tier_fast_pct=$(span_pct on_fast)" \
  "series=$series metric_lines_off=$lines_off metric_lines_on=$lines_on fds_on=$fds_on" \
  "rss_off_mib=$rss_off rss_on_mib=$rss_on budget_steps_off=$budget_off budget_steps_on=$budget_on" \
  "$(latency_figures p50 2) $(latency_figures p99 3)"
