#!/usr/bin/env bash
# `flightrec top` names the container a process runs in (docs/TOP.md): a process moved into a
# Docker-style cgroup (`.../docker/<64 hex>`, as Docker's cgroupfs driver makes it) on this host,
# with that id's Docker state (`config.v2.json`) under containers.names.docker_root, shows the
# container's name in the CONTAINER column; a host process shows `-`; with
# containers.names.enabled false the id, cut to 12, is shown instead. The cgroup is removed
# whatever happens.
source "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: making a cgroup needs root"
  exit 77
fi
# Any mounted hierarchy carries the id in /proc/<pid>/cgroup: pids (v1) or the v2 tree.
CGROUPFS=/sys/fs/cgroup
if [ -f "$CGROUPFS/pids/cgroup.procs" ]; then
  HIERARCHY=$CGROUPFS/pids
elif [ -f "$CGROUPFS/cgroup.procs" ]; then
  HIERARCHY=$CGROUPFS
else
  echo "SKIP: no cgroup hierarchy under $CGROUPFS"
  exit 77
fi
ID=$(python3 -c "import hashlib; print(hashlib.sha256(b'top-e2e-$$').hexdigest())")
PARENT="$HIERARCHY/flightrec-top-e2e-$$"
SLEEPER=""
remove_cgroup() {
  [ -z "$SLEEPER" ] || { kill -9 "$SLEEPER" 2>/dev/null || true; wait "$SLEEPER" 2>/dev/null || true; }
  rmdir "$PARENT/docker/$ID" "$PARENT/docker" "$PARENT" 2>/dev/null || true
}
trap 'remove_cgroup; cleanup' EXIT
mkdir -p "$PARENT/docker/$ID"
sh -c 'echo $$ >"$1/cgroup.procs"; exec sleep 60' sleeper "$PARENT/docker/$ID" &
SLEEPER=$!
for _ in $(seq 100); do grep -q "$ID" "/proc/$SLEEPER/cgroup" 2>/dev/null && break; sleep 0.02; done

mkdir -p "$WORK/docker/containers/$ID"
printf '{"ID":"%s","Name":"/e2e-web","Config":{"Image":"nginx:1.25","Labels":{}}}\n' "$ID" \
  >"$WORK/docker/containers/$ID/config.v2.json"
printf 'containers:\n  names:\n    docker_root: %s/docker\n' "$WORK" >"$WORK/named.yaml"
printf 'containers:\n  names:\n    enabled: false\n' >"$WORK/unnamed.yaml"

# top_row CONFIG PID: PID's row of one batch screen.
top_row() {
  "$FLIGHTREC" top --batch -n 1 --config.file="$1" 2>"$WORK/top.err" | awk -v pid="$2" '$1 == pid'
}
header=$("$FLIGHTREC" top --batch -n 1 --config.file="$WORK/named.yaml" | grep -m1 ' PID ')
expect_contains "$header" "CONTAINER" "the header has a CONTAINER column while a process is in a container"
expect_contains "$(top_row "$WORK/named.yaml" "$SLEEPER")" " e2e-web " \
  "the process in the container shows Docker's name for it"
expect_contains "$(top_row "$WORK/named.yaml" $$)" " - " "this script, on the host, shows -"
expect_contains "$(top_row "$WORK/unnamed.yaml" "$SLEEPER")" " ${ID:0:12} " \
  "with containers.names.enabled false, the id cut to 12"
finish
