#!/usr/bin/env bash
# Container rules and alert scope on this host's own cgroups (docs/TRIGGERS.md, "Container
# rules"). A bad container rule (its signal, a label, a regex) stops the start-up naming its key.
# Then, as root, two cgroups A and B, each with a CFS quota of 10 ms per 100 ms and a busy loop for
# 1.5 s (each period it waits 40-80 ms on this 6.18 kernel, which counts the throttled time from
# when the task is held), tracked by containers.match.path_regex: a rule over every container
# fires once for each (its cooldown is per container), a rule naming A's labels (a regex and a
# negative regex) fires once for A only, a rule naming a namespace none has never fires; the
# incidents are of kind container, name the cgroup in their series and details, and hold the
# window the rule asked for. A's memory limit is hit by page cache (no OOM):
# container_memory_events_max_increase > 0 fires for A; a process killed by the OOM killer in A
# makes an OOM incident naming A's container. Alerts naming A's cgroup (`id`) capture; alerts
# naming a pod or a cgroup not on this node are out_of_scope, counted on /metrics; an alert naming
# no container captures as before. The cgroups are removed whatever happens. Without the container
# tier, container rules stop the start-up and fail a reload.
source "$(dirname "$0")/lib.sh"

# A misspelt container signal, a label containers do not have and a bad regex are load errors
# naming the key.
cat >"$WORK/bad.yaml" <<YAML
incidents:
  dir: $WORK/incidents
triggers:
  - name: ok
    signal: container_memory_fill
    op: ">"
    value: 0.9
  - name: typo
    signal: container_cpu_throttled_ration{namespace="prod"}
    op: ">"
    value: 0.5
  - name: label
    signal: container_memory_fill{node="a"}
    op: ">"
    value: 0.9
  - name: regex
    signal: container_memory_fill{namespace!="dev",pod=~"web-("}
    op: ">"
    value: 0.9
YAML
start_refused --config.file="$WORK/bad.yaml"
expect_eq "$START_STATUS" 1 "bad container rules stop the start-up"
expect_contains "$START_OUTPUT" \
  'triggers[1].signal: "container_cpu_throttled_ration" is not a container signal (did you mean "container_cpu_throttled_ratio"?)' \
  "an unknown container signal names the key and the closest signal"
expect_contains "$START_OUTPUT" \
  'triggers[2].signal: container signals have no label "node" (allowed: id, name, namespace, pod, container, image)' \
  "a label containers lack names the key and the labels allowed"
expect_contains "$START_OUTPUT" \
  'triggers[3].signal: rule "regex": label matcher pod=~"web-(" is not a valid regex (missing ): web-()' \
  "a regex RE2 cannot compile names the rule and the matcher"

# Container rules without the container tier: the start-up fails naming the rule.
printf 'incidents:\n  dir: %s/incidents\ncontainers:\n  enabled: false\ntriggers:\n  - name: ok\n    signal: container_memory_fill\n    op: ">"\n    value: 0.9\n' \
  "$WORK" >"$WORK/off.yaml"
start_refused --config.file="$WORK/off.yaml"
expect_eq "$START_STATUS" 1 "a container rule without the container tier stops the start-up"
expect_contains "$START_OUTPUT" 'trigger \"ok\" (line 6): container signal \"container_memory_fill\" needs the container tier' \
  "... naming the rule"

# ... and a reload that adds one fails the same way, the running rules staying.
printf 'incidents:\n  dir: %s/incidents\ncontainers:\n  enabled: false\n' "$WORK" >"$WORK/off-running.yaml"
start_daemon --config.file="$WORK/off-running.yaml" --web.enable-lifecycle
cp "$WORK/off.yaml" "$WORK/off-running.yaml"
reloaded=$(curl -s -X POST "${URL}-/reload")
expect_contains "$reloaded" 'trigger "ok" (line 6): container signal "container_memory_fill" needs the container tier' \
  "a reload adding a container rule without the tier fails, naming the rule"
stop_daemon

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: making a cgroup needs root"
  exit 77
fi
CGROUPFS=/sys/fs/cgroup
if [ -f "$CGROUPFS/cpu,cpuacct/cgroup.procs" ]; then
  CPU_ROOT="$CGROUPFS/cpu,cpuacct"
elif [ -f "$CGROUPFS/cpu/cgroup.procs" ]; then
  CPU_ROOT="$CGROUPFS/cpu"
else
  echo "SKIP: no cgroup v1 cpu hierarchy under $CGROUPFS (this test makes v1 cgroups)"
  exit 77
fi
MEM_ROOT="$CGROUPFS/memory"
[ -f "$MEM_ROOT/cgroup.procs" ] || { echo "SKIP: no cgroup v1 memory hierarchy"; exit 77; }
NAME="flightrec-ctrig-$$"
DIRS=()
PIDS=()
remove_cgroups() {
  local pid dir
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  for dir in "${DIRS[@]}"; do
    [ -d "$dir" ] || continue
    while read -r pid; do echo "$pid" >"${dir%/*}/cgroup.procs" 2>/dev/null || true; done <"$dir/cgroup.procs"
    rmdir "$dir" 2>/dev/null || true
  done
  rm -f "/var/tmp/$NAME.fill"
}
trap 'remove_cgroups; cleanup' EXIT
for part in a b; do
  for root in "$CPU_ROOT" "$MEM_ROOT"; do mkdir "$root/$NAME-$part"; DIRS+=("$root/$NAME-$part"); done
  echo 100000 >"$CPU_ROOT/$NAME-$part/cpu.cfs_period_us"
  echo 10000 >"$CPU_ROOT/$NAME-$part/cpu.cfs_quota_us"
done
echo $((32 * 1024 * 1024)) >"$MEM_ROOT/$NAME-a/memory.limit_in_bytes"

cat >"$WORK/ctrig.yaml" <<YAML
incidents:
  dir: $WORK/incidents
  alerts:
    pre: 1s
    post: 500ms
processes:
  enabled: false
containers:
  rate: 100ms
  fast_rate: 10ms
  discovery_interval: 200ms
  match:
    runtimes: false
    kubepods: false
    path_regex: '^/$NAME-[ab]\$'
  names:
    enabled: false
triggers:
  - name: throttled
    signal: container_cpu_throttled_ratio
    op: ">"
    value: 0.25
    for: 300ms
    pre: 2s
    post: 500ms
    cooldown: 1h
  - name: throttled-a
    signal: container_cpu_throttled_ratio{name=~"$NAME-[a]",id!~".*-b"}
    op: ">"
    value: 0.25
    for: 300ms
    post: 500ms
    cooldown: 1h
  - name: prod
    signal: container_cpu_throttled_ratio{namespace="prod"}
    op: ">"
    value: 0.5
  - name: oom_kill
    signal: oom_kills_per_second
    op: ">"
    value: 0
    post: 500ms
    cooldown: 500ms
  - name: limit-hit
    signal: container_memory_events_max_increase
    op: ">"
    value: 0
    post: 500ms
    cooldown: 1h
YAML
start_daemon --config.file="$WORK/ctrig.yaml"
sleep 0.5  # a walk and a few rounds: both cgroups are tracked

# In every hierarchy's cgroup before the loop starts.
burn() {
  sh -c 'for dir in "$@"; do echo $$ >"$dir/cgroup.procs"; done
         exec timeout 1.5 sh -c "while :; do :; done"' burner "$CPU_ROOT/$NAME-$1" "$MEM_ROOT/$NAME-$1" &
  PIDS+=($!)
}
started_ns=$(date +%s%N)
burn a
burn b
# Page cache over A's 32 MiB limit: the kernel reclaims at the limit (failcnt counts), no OOM.
sh -c 'echo $$ >"$1/cgroup.procs"; exec dd if=/dev/zero of="$2" bs=1M count=64 status=none' \
  fill "$MEM_ROOT/$NAME-a" "/var/tmp/$NAME.fill"
for pid in "${PIDS[@]}"; do wait "$pid" || true; done
PIDS=()

# incidents: "rule kind series id window_from window_to fired_at cgroup" of each written one.
incidents() {
  curl -s "${URL}incidents" | python3 -c '
import json, sys
for i in sorted(json.load(sys.stdin), key=lambda i: (i["rule"], i["series"])):
    if i["status"] == "written":
        print(i["rule"], i["kind"], i["series"], i["details"].get("container.cgroup", "-"),
              i["details"].get("container.id", "-"))'
}
for _ in $(seq 60); do
  [ "$(incidents | wc -l)" -ge 4 ] && break
  sleep 0.1
done
sleep 0.5 # nothing else comes
listed=$(incidents)
echo "$listed"
expect_eq "$(grep -c '^throttled container ' <<<"$listed" || true)" 2 \
  "the rule over every container fired once for each: its cooldown is per container"
expect_contains "$listed" "throttled container container_cpu_throttled_ratio{id=\"/$NAME-a\",name=\"$NAME-a\"} /$NAME-a $NAME-a" \
  "... A's incident names it in its series and details (cgroup, id)"
expect_contains "$listed" "throttled container container_cpu_throttled_ratio{id=\"/$NAME-b\",name=\"$NAME-b\"} /$NAME-b" \
  "... and B's names B"
expect_eq "$(grep -c '^throttled-a ' <<<"$listed" || true)" 1 "the rule naming A fired once"
expect_contains "$listed" "throttled-a container container_cpu_throttled_ratio{id=\"/$NAME-a\"" "... for A"
expect_eq "$(grep -c '^prod ' <<<"$listed" || true)" 0 "a rule naming a namespace no container has never fires"
expect_contains "$listed" "limit-hit container container_memory_events_max_increase{id=\"/$NAME-a\"" \
  "A's memory limit hit fires container_memory_events_max_increase > 0 for A"

# The window: `pre: 2s` before the firing, fired within the loop's 1.5 s after `for` held 300 ms.
window=$(curl -s "${URL}incidents" | python3 -c '
import json, sys
from datetime import datetime
t = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
i = next(i for i in json.load(sys.stdin) if i["rule"] == "throttled" and i["status"] == "written")
print(round(t(i["fired_at"]) - t(i["window"]["from"]), 3), round(t(i["fired_at"]) - int(sys.argv[1]) / 1e9, 3))' "$started_ns")
read -r pre_s fired_after_s <<<"$window"
expect_eq "$pre_s" 2.0 "the incident's window starts pre (2s) before the firing"
if python3 -c "import sys; sys.exit(0 if 0.3 <= float(sys.argv[1]) <= 1.6 else 1)" "$fired_after_s"; then
  pass "it fired ${fired_after_s}s after the loops started: after for (300ms), within the loop"
else
  fail "fired ${fired_after_s}s after the loops started"
fi
echo "figure: container rule fired ${fired_after_s}s after the throttled loop started (for: 300ms)"

# An OOM kill inside A (64 MiB written against its 32 MiB limit): the OOM incident names A's
# container, from the victim's memory cgroup.
(sh -c 'echo $$ >"$1/cgroup.procs"; exec python3 -c "b = b\"x\" * (64 << 20)"' oom "$MEM_ROOT/$NAME-a") \
  2>/dev/null || true
oom=""
for _ in $(seq 80); do
  oom=$(curl -s "${URL}incidents" | python3 -c '
import json, sys
for i in json.load(sys.stdin):
    if i["kind"] == "oom_kill" and i["status"] == "written":
        d = i["details"]
        print(d.get("oom.victim_cgroup", "-"), d.get("oom.container_id", "-"), d.get("oom.victim_source", "-"))')
  [ -n "$oom" ] && break
  sleep 0.1
done
read -r victim_cgroup container_id victim_source <<<"${oom:-none none none}"
expect_eq "$victim_cgroup" "/$NAME-a" "the OOM victim's memory cgroup is A's ($victim_source)"
expect_eq "$container_id" "$NAME-a" "... and the incident names A's container (oom.container_id)"

# Alert scope: labels naming a container decide by where it ran.
alert() {
  cat <<JSON
{"status": "firing", "labels": {"alertname": "E2EScope", $2},
 "annotations": {"summary": "scope e2e"}, "startsAt": "$(rfc3339 "$(date +%s%N)")",
 "endsAt": "0001-01-01T00:00:00Z", "generatorURL": "http://prometheus/graph", "fingerprint": "$1"}
JSON
}
answer=$(curl -s -X POST "${URL}-/trigger/alertmanager" --data @- <<JSON
{"version": "4", "status": "firing", "receiver": "flightrec", "groupKey": "{}:{alertname=\"E2EScope\"}",
 "alerts": [$(alert s1 "\"id\": \"/$NAME-a\""), $(alert s2 "\"pod\": \"checkout-7f9c\", \"namespace\": \"prod\""),
            $(alert s3 "\"id\": \"/elsewhere\""), $(alert s4 "\"instance\": \"node-1\"")]}
JSON
)
echo "$answer"
expect_contains "$answer" '"captured":2' "an alert naming a cgroup on this node and one naming none capture"
expect_contains "$answer" '"out_of_scope":2' "alerts naming a pod or a cgroup not on this node are out of scope"
expect_contains "$answer" '{"fingerprint":"s2","outcome":"out_of_scope"}' "... the pod's among them"
expect_contains "$(curl -s "${URL}metrics")" 'flightrec_alerts_total{outcome="out_of_scope"} 2' \
  "/metrics counts them"

stop_daemon
expect_eq "$STOP_STATUS" 0 "the daemon stops cleanly"

# The readers show the kind and the container: `flightrec incidents` and replay's trigger line.
listing=$("$FLIGHTREC" incidents --dir="$WORK/incidents")
expect_contains "$listing" "container  throttled-a" "flightrec incidents lists the kind container"
expect_contains "$listing" "container_cpu_throttled_ratio{name=~\"$NAME-[a]\",id!~\".*-b\"} > 0.25 in $NAME-a" \
  "... with the rule's condition and the container"
for file in "$WORK"/incidents/*.flightrec; do
  batch=$("$FLIGHTREC" replay "$file" --batch)
  grep -q "throttled-a" <<<"$batch" && break
done
expect_contains "$batch" "trigger   throttled-a: container_cpu_throttled_ratio{name=~\"$NAME-[a]\",id!~\".*-b\"} > 0.25 (value" \
  "replay's trigger line names the rule"
expect_contains "$batch" "in $NAME-a" "... and the container"
finish
