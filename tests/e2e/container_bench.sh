#!/usr/bin/env bash
# bench/containers.sh (docs/PERFORMANCE.md "Container tier") at a small scale: while it runs, its
# containers are where flightrec looks for Docker's (/<bench>/docker/<64 hex> in every hierarchy
# the container tier reads), each holds its one process, and the busy ones are throttled; it ends
# with its logfmt line and its figures; and it leaves nothing behind, neither when it completes nor
# when it is interrupted with Ctrl-C while its daemons run. With a container tier in the binary
# the `on` daemon must export the bench's containers. Root only (it makes cgroups): skipped (77)
# elsewhere.
source "$(dirname "$0")/lib.sh"
repo=$(cd "$(dirname "$0")/../.." && pwd)
cgroupfs=/sys/fs/cgroup

if [ "$(id -u)" -ne 0 ]; then
  echo "skip: bench/containers.sh makes cgroups: needs root; uid $(id -u)"
  exit 77
fi
if [ ! -x "$(dirname "$FLIGHTREC")/bench/bench_cgroup_read_latency" ]; then
  echo "skip: bench_cgroup_read_latency is not built (FLIGHTREC_BENCH off)"
  exit 77
fi

# The hierarchies the bench makes its cgroups in, as the container tier reads them.
if [ -e "$cgroupfs/cgroup.controllers" ]; then
  hierarchies=("$cgroupfs")
  cpu=$cgroupfs
else
  hierarchies=()
  for controller in cpu cpuacct memory pids blkio unified; do
    [ ! -e "$cgroupfs/$controller/cgroup.procs" ] || hierarchies+=("$(realpath "$cgroupfs/$controller")")
  done
  cpu=$(realpath "$cgroupfs/cpu")
fi
# field LINE NAME: NAME's value in a logfmt line.
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $1"; }
is_number() { [[ $1 =~ ^-?[0-9]+(\.[0-9]+)?$ ]]; }
# bench_dir OUTPUT_FILE: /<bench> once the script has said it (empty until then).
bench_dir() { sed -n 's@^# [0-9]* containers under \(/[^ ]*\)/docker,.*@\1@p' "$1" 2>/dev/null; }
# wait_for WHAT CONDITION...: up to 20 s for the condition; fails WHAT otherwise.
wait_for() {
  local what=$1
  shift
  for _ in $(seq 200); do
    if "$@"; then return 0; fi
    sleep 0.1
  done
  fail "$what: not within 20 s"
  return 1
}
all_made() { [ -n "$(bench_dir "$WORK/run.out")" ] && [ -d "$cpu$(bench_dir "$WORK/run.out")/docker" ] &&
  [ "$(find "$cpu$(bench_dir "$WORK/run.out")/docker" -mindepth 1 -maxdepth 1 -type d | wc -l)" -eq 6 ]; }
# has_process DIR: the cgroup holds a process (cgroupfs files have no size to test).
has_process() { [ -n "$(cat "$1/cgroup.procs" 2>/dev/null)" ]; }
# leftovers BENCH: what of the bench is still there (its directories in any hierarchy).
leftovers() {
  local root
  for root in "${hierarchies[@]}"; do [ ! -e "$root$1" ] || echo "$root$1"; done
}

# --- a complete run ------------------------------------------------------------------------------
"$repo/bench/containers.sh" "$FLIGHTREC" --containers 6 --busy 2 --seconds 1 --warmup 1 \
  --reads 20000 --cycles 1 >"$WORK/run.out" 2>"$WORK/run.err" &
run=$!
if wait_for "the bench's cgroups made" all_made; then
  bench=$(bench_dir "$WORK/run.out")
  docker=$cpu$bench/docker
  pids=()
  ids_ok=1
  for dir in "$docker"/*/; do
    id=$(basename "$dir")
    [[ $id =~ ^[0-9a-f]{64}$ ]] || ids_ok=0
    for root in "${hierarchies[@]}"; do [ -d "$root$bench/docker/$id" ] || ids_ok=0; done
    wait_for "a process in $id" has_process "$dir" || true
    pids+=($(cat "$dir/cgroup.procs" 2>/dev/null || true))
  done
  expect_eq "$ids_ok" 1 "every container is a 64-hex id under /docker/ in every hierarchy (${#hierarchies[@]})"
  expect_eq "${#pids[@]}" 6 "each of the 6 containers holds one process"
  throttled() {
    local dir count=0
    for dir in "$docker"/*/; do
      [ "$(awk '$1 == "nr_throttled" { print $2 }' "$dir/cpu.stat")" -gt 0 ] && count=$((count + 1))
    done
    [ "$count" -eq 2 ]
  }
  wait_for "the 2 busy containers throttled (cpu.stat nr_throttled)" throttled && pass "the 2 busy containers are throttled"
fi
status=0
wait "$run" || status=$?
expect_eq "$status" 0 "bench/containers.sh completes (stderr: $(head -c 300 "$WORK/run.err"))"
line=$(grep '^containers=' "$WORK/run.out" || true)
expect_eq "$(field "$line" containers)" 6 "one logfmt line for the 6 containers"
for name in off_pct on_pct delta_pct p50_without_ns p50_with_ns p50_ratio p99_ratio p99_paired_ratio; do
  if is_number "$(field "$line" "$name")"; then pass "$name is a figure ($(field "$line" "$name"))"; else fail "$name is not a figure in: $line"; fi
done
tier=$(field "$line" tier)
case $tier in
  on)
    if [ "$(field "$line" series)" -gt 0 ]; then
      pass "the on daemon exports the bench's containers ($(field "$line" series) flightrec_container_ series)"
    else
      fail "the on daemon exports no flightrec_container_ series for the bench's containers"
    fi
    # The whole daemon's time holds its tier's reads: a figure below them is a broken count.
    if awk -v on="$(field "$line" on_pct)" -v slow="$(field "$line" tier_slow_pct)" \
      -v fast="$(field "$line" tier_fast_pct)" 'BEGIN { exit !(slow != "" && fast != "" && on + 0 >= slow + fast) }'; then
      pass "the on daemon's CPU ($(field "$line" on_pct) %) holds its tier's reads ($(field "$line" tier_slow_pct) + $(field "$line" tier_fast_pct) %)"
    else
      fail "the on daemon's CPU is below its tier's own reads in: $line"
    fi ;;
  absent) pass "this flightrec has no container tier: both daemons ran its defaults" ;;
  *) fail "unexpected tier=$tier" ;;
esac
if [ -n "${bench:-}" ]; then
  expect_eq "$(leftovers "$bench")" "" "no cgroup of the bench is left"
  alive=""
  for pid in "${pids[@]}"; do ! kill -0 "$pid" 2>/dev/null || alive+=" $pid"; done
  expect_eq "$alive" "" "no process of the bench's containers is left"
fi

# --- Ctrl-C while the daemons run ----------------------------------------------------------------
# A script started in the background by a script ignores SIGINT (and cannot trap it): it is started
# with SIGINT back at its default, as from a terminal.
: >"$WORK/run.out"
python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
  "$repo/bench/containers.sh" "$FLIGHTREC" --containers 6 --busy 2 --seconds 60 --warmup 1 \
  --reads 20000 >"$WORK/run.out" 2>"$WORK/run.err" &
run=$!
daemons_up() { [ "$(pgrep -c -P "$run" -f 'flightrec daemon' || true)" -eq 2 ]; }
if wait_for "the bench's two daemons started" daemons_up; then
  bench=$(bench_dir "$WORK/run.out")
  daemons=$(pgrep -P "$run" -f 'flightrec daemon' | xargs)
  kill -INT "$run"
  status=0
  wait "$run" || status=$?
  expect_eq "$status" 130 "Ctrl-C ends bench/containers.sh with 130"
  expect_eq "$(leftovers "$bench")" "" "after Ctrl-C no cgroup of the bench is left"
  alive=""
  for pid in $daemons; do ! kill -0 "$pid" 2>/dev/null || alive+=" $pid"; done
  expect_eq "$alive" "" "after Ctrl-C neither daemon runs"
else
  kill -TERM "$run" 2>/dev/null || true
  wait "$run" 2>/dev/null || true
fi
finish
