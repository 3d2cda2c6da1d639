#!/usr/bin/env bash
# The built-in oom_kill rule for real: a child in a memory-limited cgroup (v2 memory.max, or v1
# memory.limit_in_bytes, whichever this machine has) allocates until the kernel kills it. An
# incident of rule oom_kill must exist, be written whole, and its process frames must hold that
# pid with its resident memory growing before the kill. Then the daemon runs without the right to
# read the kernel log, as the shipped deployments do, and must name the victim from the process
# tier's eBPF exit report, and the limit from the victim's cgroup up. Runs alone (tests/CMakeLists.txt): every other daemon would see the
# kill too.
source "$(dirname "$0")/lib.sh"

limit=$((64 << 20))
cgroup=""
# A memory cgroup this test may create and limit; "" when the machine offers none.
make_memory_cgroup() {
  local root=/sys/fs/cgroup
  if grep -qw memory "$root/cgroup.controllers" 2>/dev/null; then
    grep -qw memory "$root/cgroup.subtree_control" || echo +memory >"$root/cgroup.subtree_control" || return 0
    cgroup=$root/flightrec-oom-$$
    mkdir "$cgroup" && echo "$limit" >"$cgroup/memory.max" && { echo 0 >"$cgroup/memory.swap.max" 2>/dev/null || true; }
  elif [ -d "$root/memory" ]; then
    cgroup=$root/memory$(sed -n 's/^[0-9]*:memory://p' /proc/self/cgroup)/flightrec-oom-$$
    mkdir "$cgroup" && echo "$limit" >"$cgroup/memory.limit_in_bytes" &&
      { [ ! -e "$cgroup/memory.memsw.limit_in_bytes" ] || echo "$limit" >"$cgroup/memory.memsw.limit_in_bytes"; }
  fi
}
# A cgroup inside it, without a limit of its own: the exit program must find the parent's.
inner=""
make_inner_cgroup() {
  inner=$cgroup/inner
  [ ! -e "$cgroup/cgroup.subtree_control" ] || echo +memory >"$cgroup/cgroup.subtree_control"
  mkdir "$inner"
}
remove_cgroup() {
  [ -z "$inner" ] || rmdir "$inner" 2>/dev/null || true
  [ -z "$cgroup" ] || rmdir "$cgroup" 2>/dev/null || true
}
make_memory_cgroup || cgroup=""
if [ -z "$cgroup" ] || [ ! -d "$cgroup" ]; then
  echo "skip: no memory cgroup this test can create (neither v2 with the memory controller nor v1)"
  exit 77
fi
trap 'remove_cgroup; cleanup' EXIT

start_daemon
sleep 1.5  # some history before the kill: the incident's pre-window is the whole buffer

# 4 MiB every 100 ms, touched: about 1.6 s to reach the limit, several process ticks (250 ms).
# run_victim STEP_MIB [CGROUP]: a child in CGROUP (the limited one by default) that allocates
# STEP_MIB every 100 ms, touched, until the kernel kills it; sets victim to its pid and checks it
# died of SIGKILL.
run_victim() {
  sh -c "echo \$\$ >'${2:-$cgroup}/cgroup.procs' && exec python3 -c '
import time
held = []
while True:
    held.append(b\"\\x01\" * ($1 << 20))
    time.sleep(0.1)
'" &
  victim=$!
  local status=0
  wait "$victim" || status=$?
  expect_eq "$status" 137 "the child in the $((limit >> 20)) MiB cgroup is killed (SIGKILL)"
}
# 4 MiB every 100 ms: about 1.6 s to reach the limit, several process ticks (250 ms). A second
# child, killed within the first incident's 5 s after-window (and its 5 s cooldown), is in that
# incident and fires no other.
run_victim 4
first_victim=$victim
run_victim 16
second_victim=$victim
victim=$first_victim

incident=""
for _ in $(seq 150); do
  incident=$(curl -s "${URL}incidents" | python3 -c '
import json, sys
done = [i for i in json.load(sys.stdin) if i.get("rule") == "oom_kill" and i["status"] == "written"]
if done:
    i, d = done[0], done[0]["details"]
    print(i["id"], i["fired_at"], i["series"], d.get("oom.victim_pid", "-"), d.get("oom.victim_command", "-"),
          d.get("oom.cgroup_limit_bytes", "-"), d.get("oom.victim_rss_bytes", "-"),
          d.get("oom.kills_in_window", "-"), d.get("oom.killed_at_ns", "-"), len(done),
          d.get("oom.victim_source", "-"), d.get("oom.victim_exit_peak_rss_bytes", "-"),
          d.get("oom.sources_disagree", "agree").replace(" ", "_"), d.get("oom.victim_cgroup", "-"),
          d.get("oom.victim_exited_at_ns", "-"), d.get("oom.victim_limit_bytes", "-"),
          d.get("oom.victims.1", "-").replace(" ", "_"), d.get("oom.victims.2", "-").replace(" ", "_"),
          d.get("oom.victim", "-"))')
  [ -n "$incident" ] && break
  sleep 0.1
done
listed_at=$(date +%s.%N)
read -r id fired_at series victim_pid victim_command limit_bytes victim_rss kills killed_at count source exit_peak agree victim_cgroup exited_at exit_limit victims_1 victims_2 why <<<"$incident"
expect_eq "${series:-none}" oom_kills_per_second "an incident of the built-in rule oom_kill, on oom_kills_per_second"
[ -n "$id" ] || finish
expect_eq "$(curl -s "${URL}incidents" | python3 -c 'import json, sys
print(next((i["kind"] for i in json.load(sys.stdin) if i["id"] == sys.argv[1]), "-"))' "$id")" oom_kill \
  "/incidents gives its kind, oom_kill"
# The kernel log names the victim (this test runs as root, which may read it).
expect_eq "$victim_pid $victim_command" "$victim python3" "the incident names the victim from the kernel log (${why})"
expect_eq "$limit_bytes" "$limit" "the incident names the cgroup's limit"
if [ "$victim_rss" != - ] && [ "$victim_rss" -gt $((limit / 2)) ]; then
  pass "the incident gives the victim's size when killed: $victim_rss bytes"
else
  fail "the victim's size when killed: '$victim_rss'"
fi
# The process tier's exit report names the same victim: both sources, agreeing.
if [ "${FLIGHTREC_REQUIRE_EBPF:-0}" = 1 ] || [ "$source" != kernel_log ]; then
  expect_eq "$source $agree" "kernel_log+ebpf_exit agree" "the kernel log and the eBPF exit report both name the victim, and agree"
  # The kernel's path from its hierarchy's root, which a cgroup namespace may hide from this
  # test: only its last component is sure.
  expect_eq "${victim_cgroup##*/}" "${cgroup##*/}" "the victim's memory cgroup ($victim_cgroup)"
  # The exit program reads the cgroup's memory.max itself: the value the test wrote, as the log's.
  expect_eq "$exit_limit" "$limit" "the exit report gives the cgroup's limit too, as the kernel log does"
  [ "$exited_at" = - ] || echo "figure: the victim's size when killed (kernel log) $victim_rss bytes," \
    "its peak at exit (eBPF) $exit_peak bytes; it exited $(((exited_at - killed_at) / 1000)) µs after" \
    "the kernel logged its kill"
fi
expect_eq "$kills $count" "2 1" "the second kill ($second_victim), inside the first's window, is in that one incident"
# Each named, oldest first ("_" for spaces, as read above).
expect_eq "${victims_1%%_killed_at_ns=*} ${victims_1##*_}" "pid=$first_victim comm=python3" \
  "the incident names the first victim of its window ($victims_1)"
expect_eq "${victims_2%%_killed_at_ns=*} ${victims_2##*_}" "pid=$second_victim comm=python3" \
  "and the second ($victims_2)"
python3 - "$fired_at" "$killed_at" "$listed_at" <<'PY' || fail "detection latency"
import datetime, sys
fired = datetime.datetime.fromisoformat(sys.argv[1].replace("Z", "+00:00")).timestamp()
killed = int(sys.argv[2]) / 1e9
print(f"figure: the rule fired {(fired - killed) * 1e3:.0f} ms after the kernel logged the kill; "
      f"the incident was listed as written {float(sys.argv[3]) - killed:.1f} s after it "
      "(5 s of it the after-window; /incidents polled every 0.1 s)")
PY

curl -s "${URL}incidents/$id?format=raw" -o "$WORK/oom.flightrec"
expect_contains "$("$FLIGHTREC" replay --batch "$WORK/oom.flightrec" 2>&1 | grep "^trigger")" \
  "killed $victim python3" "replay's trigger line names the victim"
# The victim's RSS in the process frames before the kill, one reading per 250 ms step back.
rss=$(python3 - "$FLIGHTREC" "$WORK/oom.flightrec" "$fired_at" "$victim" <<'PY'
import datetime, json, subprocess, sys
flightrec, path, fired_at, pid = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
fired = datetime.datetime.fromisoformat(fired_at.replace("Z", "+00:00")).timestamp()
seen = []
for back in (2.0, 1.75, 1.5, 1.25, 1.0, 0.75, 0.5, 0.25):
    out = subprocess.run([flightrec, "replay", "--batch", path, "--format", "json", "--interval",
                          "sample", "--at", f"{fired - back:.3f}"], capture_output=True, text=True)
    rows = json.loads(out.stdout)["rows"] if out.returncode == 0 else []
    seen += [row["rss_bytes"] for row in rows if row["pid"] == pid]
print(" ".join(str(r) for r in seen))
PY
)
read -ra readings <<<"$rss"
if [ "${#readings[@]}" -ge 3 ] && [ "${readings[-1]}" -gt "${readings[0]}" ]; then
  pass "the incident's process frames hold the victim ($victim) growing: ${readings[*]} bytes"
else
  fail "the victim's RSS in the incident's process frames: '${readings[*]}' (want 3 or more, growing)"
fi
# The memory details computed from those frames when the incident was written.
last_reading=0
[ "${#readings[@]}" -gt 0 ] && last_reading=${readings[-1]}
# The command line is the child's: its interpreter (any path to python3) and the loop it runs.
read -r peak samples top1 cmdline <<<"$(curl -s "${URL}incidents" | python3 -c '
import json, sys
d = next(i for i in json.load(sys.stdin) if i["id"] == sys.argv[1])["details"]
cmdline = d.get("oom.victim_cmdline", "-")
print(d.get("oom.victim_peak_rss_bytes", "-"), d.get("oom.victim_rss_samples", "-"),
      d.get("oom.top_rss.1", "-").split(" ")[0],
      "child" if "python3" in cmdline and "held.append" in cmdline else repr(cmdline[:80]))' "$id")"
if [ "$samples" != - ] && [ "$samples" -ge 3 ] && [ "$peak" -ge "$last_reading" ]; then
  pass "the incident gives the victim's recorded RSS: peak $peak bytes over $samples process frames"
else
  fail "the victim's recorded RSS in the details: peak '$peak' over '$samples' frames"
fi
expect_eq "${top1%%=*}" pid "the incident lists the biggest memory consumers at the kill ($top1)"
expect_eq "$cmdline" child "the incident gives the victim's command line from its process frames"
stop_daemon

# Without the kernel log: the deployments grant no CAP_SYSLOG, so it leaves the bounding set
# (setpriv, util-linux), and CAP_SYS_ADMIN with it, which some kernels also accept for /dev/kmsg.
# CAP_BPF and CAP_PERFMON stay, as deployed: the eBPF exit report must name the victim.
if [ "${FLIGHTREC_REQUIRE_EBPF:-0}" = 1 ] || [ "$source" != kernel_log ]; then
  cat >"$WORK/flightrec-no-syslog" <<SH
#!/bin/sh
exec setpriv --bounding-set -syslog,-sys_admin -- "$FLIGHTREC" "\$@"
SH
  chmod +x "$WORK/flightrec-no-syslog"
  printf 'incidents:\n  dir: %s/incidents-nolog\n' "$WORK" >"$WORK/nolog.yaml"
  real_flightrec=$FLIGHTREC
  FLIGHTREC=$WORK/flightrec-no-syslog start_daemon --config.file="$WORK/nolog.yaml"
  FLIGHTREC=$real_flightrec
  expect_contains "$(cat "$WORK/daemon.log")" "OOM victims named from eBPF exit reports only" \
    "the daemon cannot read the kernel log and says the exit reports will name OOM victims"
  sleep 1
  make_inner_cgroup
  run_victim 16 "$inner"
  incident=""
  for _ in $(seq 150); do
    incident=$(curl -s "${URL}incidents" | python3 -c '
import json, sys
done = [i for i in json.load(sys.stdin) if i.get("rule") == "oom_kill" and i["status"] == "written"]
if done:
    d = done[0]["details"]
    print(done[0]["id"], d.get("oom.victim_pid", "-"), d.get("oom.victim_command", "-"), d.get("oom.victim_source", "-"),
          d.get("oom.victim_exit_peak_rss_bytes", "-"), d.get("oom.victim_exited_at_ns", "-"),
          d.get("oom.cgroup_limit_bytes", "none"), d.get("oom.victim_cgroup", "-"),
          d.get("oom.victim_limit_bytes", "-"), d.get("oom.victim_limit_cgroup", "-"), d.get("oom.victim", "-"))')
    [ -n "$incident" ] && break
    sleep 0.1
  done
  listed_at=$(date +%s%N)
  read -r id victim_pid victim_command source exit_peak exited_at limit_bytes victim_cgroup exit_limit limit_cgroup why <<<"$incident"
  expect_eq "$victim_pid $victim_command $source" "$victim python3 ebpf_exit" \
    "without the kernel log, the eBPF exit report names the victim ($why)"
  expect_eq "${victim_cgroup##*/}" inner "and its memory cgroup ($victim_cgroup)"
  expect_eq "$limit_bytes" none "and no limit that was hit, which only the kernel log can tell"
  # inner has no limit: the nearest is its parent's, found walking up from the victim's cgroup.
  expect_eq "$exit_limit ${limit_cgroup##*/}" "$limit ${cgroup##*/}" \
    "and the nearest cgroup limit, its parent's, from the exit report ($limit_cgroup)"
  if [ "$exit_peak" != - ] && [ "$exit_peak" -gt $((limit / 2)) ]; then
    pass "the exit report gives the victim's peak size: $exit_peak bytes"
  else
    fail "the victim's peak size from the exit report: '$exit_peak'"
  fi
  [ "$exited_at" = - ] || echo "figure: without the kernel log, the incident was listed as written $(((listed_at - exited_at) / 1000000)) ms after the victim exited (5 s of it the after-window; /incidents polled every 0.1 s)"
  curl -s "${URL}incidents/$id?format=raw" -o "$WORK/oom-ebpf.flightrec"
  expect_contains "$("$FLIGHTREC" replay --batch "$WORK/oom-ebpf.flightrec" 2>&1 | grep "^victim")" \
    "$victim python3, cgroup $victim_cgroup" "replay's victim line names it, and by which source"
  stop_daemon
else
  echo "skip: no eBPF exit reports here (FLIGHTREC_REQUIRE_EBPF=1 makes that a failure)"
fi

# The process tier off: the incident still comes, and still names the victim.
printf 'incidents:\n  dir: %s/incidents-noproc\nprocesses:\n  enabled: false\n' "$WORK" >"$WORK/noproc.yaml"
start_daemon --config.file="$WORK/noproc.yaml"
sleep 0.5
run_victim 16 "${inner:-$cgroup}"
named=""
for _ in $(seq 150); do
  named=$(curl -s "${URL}incidents" | python3 -c '
import json, sys
done = [i for i in json.load(sys.stdin) if i.get("rule") == "oom_kill" and i["status"] == "written"]
print(done[0]["details"].get("oom.victim_pid", "-") + " " + done[0]["details"].get("oom.victim_rss_curve", "-") if done else "")')
  [ -n "$named" ] && break
  sleep 0.1
done
expect_eq "${named%% *}" "$victim" "with the process tier off, the oom_kill incident is written and names the victim"
expect_eq "${named#* }" "not recorded: the process tier is off (processes.enabled)" "and says its RSS curve is not recorded"
stop_daemon
finish
