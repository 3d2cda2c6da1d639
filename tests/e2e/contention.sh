#!/usr/bin/env bash
# A busy machine does not blind the recorder: with every CPU oversubscribed 2x by SCHED_OTHER busy
# loops, the procfs sampler with its thread SCHED_FIFO (sampler.realtime) and the in-kernel tick
# (sampler.backend: ebpf) with its thread at normal priority each record at least 99.5 % of the
# expected frames, less what the hypervisor stole, and in every mode (the procfs sampler without
# realtime too) every deadline is accounted for: frames + counted missed ticks = elapsed / rate
# within 0.1 %, and every frame handed over reaches the ring. The measurement is bench/contention.sh's (8 s per mode); this reads
# its logfmt lines.
# Why 99.5 % and not the 99.9 % target (which the 20 s benchmark reports): a vCPU the host
# deschedules runs nothing whatever its policy, and on the shared 2-vCPU VMs an 8 s run sometimes
# loses 0.5 % of a vCPU that way. So the threshold is lowered by nproc x the run's steal (%): the
# share of one vCPU's time the host took, at worst. Without realtime the same runs record 40-87 %.
# Needs SCHED_FIFO, so root (CI) or CAP_SYS_NICE; skipped (exit 77) where it is refused.
source "$(dirname "$0")/lib.sh"
repo=$(cd "$(dirname "$0")/../.." && pwd)

if ! chrt -f 10 true 2>/dev/null; then
  echo "skip: SCHED_FIFO is not permitted here (needs root or CAP_SYS_NICE); uid $(id -u)"
  exit 77
fi

# The in-kernel tick needs CAP_BPF and CAP_PERFMON: as root it must load (the bench fails if not).
modes="on off"
[ "$(id -u)" -ne 0 ] || modes="on off ebpf"
"$repo/bench/contention.sh" "$FLIGHTREC" 8 "$modes" | tee "$WORK/figures"
# field LINE NAME: the value of NAME=value in a logfmt line.
field() { sed -n "s/.* $2=\([^ %]*\).*/\1/p" <<<" $1"; }
# at_least VALUE MIN: VALUE >= MIN as decimals.
at_least() { awk -v v="$1" -v m="$2" 'BEGIN { exit !(v >= m) }'; }

for mode in $modes; do
  line=$(grep "^mode=$mode " "$WORK/figures" || true)
  [ -n "$line" ] || { fail "no figures for mode=$mode"; continue; }
  expect_eq "$(field "$line" accounting)" ok \
    "mode=$mode: frames + missed = elapsed / rate within 0.1 % (deviation $(field "$line" deviation) %)"
  expect_eq "$(field "$line" ring)" all "mode=$mode: every frame handed to the recorder reached the ring"
done

on=$(grep '^mode=on ' "$WORK/figures" || true)
expect_eq "$(field "$on" policy)" SCHED_FIFO "the sampler runs SCHED_FIFO by default (flightrec_sampler_realtime 1)"

# at_least_frames MODE WHAT: MODE recorded >= 99.5 % less nproc x its steal.
at_least_frames() {
  local line want
  line=$(grep "^mode=$1 " "$WORK/figures" || true)
  want=$(awk -v steal="$(field "$line" steal)" -v cpus="$(nproc)" 'BEGIN { printf "%.2f", 99.5 - cpus * steal }')
  if at_least "$(field "$line" recorded)" "$want"; then
    pass "$2: $(field "$line" recorded) % of expected frames recorded under 2x oversubscription (>= $want)"
  else
    fail "$2: only $(field "$line" recorded) % of expected frames recorded under 2x oversubscription (want >= $want: 99.5 less $(nproc) x $(field "$line" steal) % steal)"
  fi
}
at_least_frames on "procfs sampler, realtime"
if [[ " $modes " == *" ebpf "* ]]; then
  expect_eq "$(field "$(grep '^mode=ebpf ' "$WORK/figures")" backend)" ebpf "mode=ebpf ran on the in-kernel tick"
  at_least_frames ebpf "in-kernel tick, sampler thread at normal priority"
fi
finish
