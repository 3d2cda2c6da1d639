#!/usr/bin/env bash
# Records examples/throttled-pod.flightrec: flightrec itself watching a Kubernetes pod whose
# checkout container is throttled by its CPU limit.
#
#   examples/make-throttled-pod.sh [path/to/flightrec]     (default: build/flightrec; needs root)
#
# 0. Moves itself to the root of every cgroup hierarchy, then re-runs itself in fresh PID, mount,
#    network, UTS and cgroup namespaces (unshare), so the recording holds the scenario's processes
#    only and their cgroup paths read as the machine's.
# 1. Lays out what a kubelet with the cgroupfs driver would: pod prod/checkout-7f9c8d6b5-x2kqp's
#    cgroup under kubepods/burstable, one cgroup per container (app: 0.5 CPU, 512 MiB; log-shipper:
#    0.1 CPU, 64 MiB) in every v1 hierarchy, and its log directories under a private /var/log
#    (tmpfs), which is where flightrec reads pod and container names.
# 2. Starts `flightrec daemon` with examples/throttled-pod.yaml (rule: the throttled share of a
#    period above 0.5 for 300 ms, in namespace prod), a sleeping log shipper, and
#    scenario/checkout_burst.py in the app container: 4 workers, six 50 ms bursts a second apart
#    (a throttled period or two each, as a 15 s average never shows), then four 600 ms ones.
# 3. Waits for the incident, downloads it, checks with `flightrec replay --tab containers` that
#    the app container is named and its period strip has throttled periods, and only then replaces
#    examples/throttled-pod.flightrec. The cgroups are removed whatever happens.
# Needs a cgroup v1 (or hybrid) host with the cpu and memory controllers, as this project's CI.
set -euo pipefail

EXAMPLES=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CGROUPFS=/sys/fs/cgroup

die() { echo "make-throttled-pod: $*" >&2; exit 1; }

# The v1 hierarchies to lay the pod out in: each mounted controller directory (a co-mounted
# cpu,cpuacct once, not through its cpu and cpuacct links), and the hybrid host's unified tree,
# where the kernel keeps each cgroup's pressure files.
hierarchies() {
  local name
  for name in cpu,cpuacct cpu cpuacct memory pids blkio unified; do
    [ -f "$CGROUPFS/$name/cgroup.procs" ] && [ ! -L "$CGROUPFS/$name" ] && echo "$CGROUPFS/$name"
  done
  return 0
}

if [ "${FLIGHTREC_EXAMPLE_NAMESPACES:-}" != 1 ]; then
  [ "$(id -u)" = 0 ] || die "needs root (cgroups, unshare)"
  [ -f "$CGROUPFS/memory/cgroup.procs" ] || die "no cgroup v1 memory hierarchy under $CGROUPFS (a v2-only host)"
  # At the root of every hierarchy, the cgroup namespace's root is the machine's: the paths
  # flightrec reads in /proc/<pid>/cgroup are those of the cgroup tree it walks.
  for dir in $(hierarchies); do echo $$ >"$dir/cgroup.procs"; done
  exec unshare --pid --fork --mount-proc --net --uts --cgroup \
    env --chdir="$EXAMPLES" FLIGHTREC_EXAMPLE_NAMESPACES=1 \
    FLIGHTREC="$(realpath "${1:-$EXAMPLES/../build/flightrec}")" bash make-throttled-pod.sh
fi

OUTPUT="$EXAMPLES/throttled-pod.flightrec"
PYTHON=$(command -v /usr/bin/python3 python3 | head -1)
NAMESPACE=prod
POD=checkout-7f9c8d6b5-x2kqp
POD_UID=3f6c1a2e-8b4d-4e6f-9a1b-2c3d4e5f6a7b
APP_ID=8d2f0c4b6a1e3957b0c2d4e6f8a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e1f3a5
SHIPPER_ID=1b3d5f7a9c0e2b4d6f8a0c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d0f2a4c6e8b0d
POD_PATH=kubepods/burstable/pod$POD_UID

hostname example
ip link set lo up
mount -t tmpfs -o size=256m example-tmp /tmp # private to this mount namespace, gone with it
mount -t tmpfs -o size=16m example-log /var/log # the kubelet's log directories, made below
WORK=/tmp/example
mkdir "$WORK"
PIDS=()
CGROUP_DIRS=()

cleanup() {
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  local index dir
  # Deepest first: a cgroup with children cannot go.
  for ((index = ${#CGROUP_DIRS[@]} - 1; index >= 0; index--)); do
    dir=${CGROUP_DIRS[index]}
    [ -d "$dir" ] || continue
    while read -r pid; do echo "$pid" >"${dir%%/kubepods*}/cgroup.procs" 2>/dev/null || true; done \
      <"$dir/cgroup.procs"
    rmdir "$dir" 2>/dev/null || true
  done
}
trap cleanup EXIT

# make_cgroups HIERARCHY: the pod's cgroups in one hierarchy, parents first, recorded for removal.
make_cgroups() {
  local path="" part
  for part in kubepods burstable "pod$POD_UID"; do
    path+="/$part"
    if [ ! -d "$1$path" ]; then
      mkdir "$1$path"
      CGROUP_DIRS+=("$1$path")
    fi
  done
  for part in "$APP_ID" "$SHIPPER_ID"; do
    mkdir "$1$path/$part"
    CGROUP_DIRS+=("$1$path/$part")
  done
}
# limit CONTROLLER_FILE VALUE CONTAINER_ID: writes one limit of one container, where it exists.
limit() {
  local dir file=$1
  for dir in $(hierarchies); do
    [ -f "$dir/$POD_PATH/$3/$file" ] && echo "$2" >"$dir/$POD_PATH/$3/$file"
  done
  return 0
}
for dir in $(hierarchies); do make_cgroups "$dir"; done
# CPU weights as a kubelet sets them from requests, here large enough that the workers' demand,
# not the machine's other tasks, is what meets the quota.
for path in kubepods kubepods/burstable "$POD_PATH" "$POD_PATH/$APP_ID"; do
  for dir in $(hierarchies); do
    [ -f "$dir/$path/cpu.shares" ] && echo 10240 >"$dir/$path/cpu.shares"
  done
done
limit cpu.cfs_period_us 100000 "$APP_ID"
limit cpu.cfs_quota_us 50000 "$APP_ID"
limit memory.limit_in_bytes $((512 << 20)) "$APP_ID"
limit cpu.cfs_period_us 100000 "$SHIPPER_ID"
limit cpu.cfs_quota_us 10000 "$SHIPPER_ID"
limit memory.limit_in_bytes $((64 << 20)) "$SHIPPER_ID"

# The kubelet's log layout: flightrec names each container from the link's name and its text.
for container in app:$APP_ID log-shipper:$SHIPPER_ID; do
  name=${container%%:*}
  id=${container#*:}
  mkdir -p "/var/log/pods/${NAMESPACE}_${POD}_${POD_UID}/$name" /var/log/containers
  touch "/var/log/pods/${NAMESPACE}_${POD}_${POD_UID}/$name/0.log"
  ln -s "/var/log/pods/${NAMESPACE}_${POD}_${POD_UID}/$name/0.log" \
    "/var/log/containers/${POD}_${NAMESPACE}_${name}-${id}.log"
done

sed -e "s|^\(  dir:\) .*|\1 $WORK/incidents|" "$EXAMPLES/throttled-pod.yaml" >"$WORK/config.yaml"

# `exec -a`: the process list shows `flightrec daemon ...`, not where this build keeps its binary.
(cd "$WORK" && exec -a flightrec "$FLIGHTREC" daemon --web.listen-address=127.0.0.1:0 \
  --config.file=config.yaml 2>daemon.log) &
PIDS+=($!)
url=""
for _ in $(seq 100); do
  url=$(sed -n 's/.*msg=listening url=\([^ ]*\).*/\1/p' "$WORK/daemon.log" | head -1)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { cat "$WORK/daemon.log" >&2; die "the daemon did not start"; }
echo "daemon at $url"

# run_in CONTAINER_ID COMMAND...: COMMAND in every hierarchy's cgroup of that container.
run_in() {
  local id=$1
  shift
  local dirs=()
  for dir in $(hierarchies); do dirs+=("$dir/$POD_PATH/$id"); done
  sh -c 'id=$1; shift; while [ "$1" != -- ]; do echo $$ >"$1/cgroup.procs"; shift; done; shift
         exec "$@"' run_in "$id" "${dirs[@]}" -- "$@" &
  PIDS+=($!)
}
run_in "$SHIPPER_ID" sleep 60
sleep 2 # the daemon discovers the pod and names its containers
run_in "$APP_ID" "$PYTHON" scenario/checkout_burst.py
echo "checkout is pid ${PIDS[-1]}"

id=""
for _ in $(seq 60); do
  incidents=$(curl -sf "$url/incidents") || incidents=""
  if [[ $incidents == *'"status":"written"'* && $incidents =~ \"id\":\"([^\"]+)\" ]]; then
    id=${BASH_REMATCH[1]}
    break
  fi
  sleep 0.5
done
[ -n "$id" ] || { tail -20 "$WORK/daemon.log" >&2; die "no incident within 30 s"; }
echo "incident $id"
curl -sf "$url/incidents/$id?format=raw" -o "$WORK/incident.flightrec"

"$FLIGHTREC" replay "$WORK/incident.flightrec" --batch --tab containers --format json >"$WORK/containers.json" ||
  die "replay could not read the incident"
"$PYTHON" - "$WORK/containers.json" "$NAMESPACE/$POD/app" <<'PY' || die "the recording does not show the throttled app container (above)"
import json, sys
view = json.load(open(sys.argv[1]))
rows = [row for row in view["rows"] if row["name"] == sys.argv[2]]
strips = [s for s in view.get("period_strips", []) if rows and s["path"] == rows[0]["path"]]
throttled = sum(1 for strip in strips for cell in strip["cells"] if cell["throttled"])
print(f"app rows: {len(rows)}, throttled periods in its strip: {throttled}")
sys.exit(0 if rows and throttled >= 3 else 1)
PY

cp "$WORK/incident.flightrec" "$OUTPUT"
chmod 0644 "$OUTPUT"
echo "wrote $OUTPUT ($(stat -c %s "$OUTPUT") bytes)"
