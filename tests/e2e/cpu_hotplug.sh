#!/usr/bin/env bash
# CPU hotplug (issue 21): two daemons, one on each sampler backend, record while cpu1 is offline
# for ~3 s. In both, cpu1's series are absent from /metrics and from every /dump frame while it is
# offline, present before and after, and never go backwards across the whole run; the ebpf
# backend's aggregate cpu line never goes backwards either and, while cpu1 is offline, advances
# at one CPU's pace (docs/SOURCES.md "Backends"). cpu_hotplug.py checks the /dump recordings.
# Needs root and an offlinable cpu1; skipped (exit 77) only where cpu1 cannot be taken offline.
# Other tests' daemons see the offline CPU too, so this one runs alone (tests/CMakeLists.txt).
source "$(dirname "$0")/lib.sh"
HERE=$(dirname "$0")
CPU1=/sys/devices/system/cpu/cpu1/online
PID_E=""
PID_P=""
WATCHDOG=""

if [ "$(id -u)" -ne 0 ]; then
  echo "skip: taking a CPU offline needs root; uid $(id -u)"
  exit 77
fi
if [ ! -w "$CPU1" ]; then
  echo "skip: $CPU1 does not exist (no cpu1, or it cannot be taken offline)"
  exit 77
fi
if [ "$(cat "$CPU1")" != 1 ]; then
  echo "skip: cpu1 is offline already"
  exit 77
fi

bring_cpu1_back() { echo 1 >"$CPU1" 2>/dev/null || true; }
stop_all() {
  for pid in $PID_E $PID_P $WATCHDOG; do kill -9 "$pid" 2>/dev/null || true; done
}
trap 'bring_cpu1_back; stop_all; cleanup' EXIT

# write_config NAME BACKEND: a daemon on sampler.backend BACKEND without the process tier or the
# network backend, which this test does not look at.
write_config() {
  cat <<YAML >"$WORK/$1.yaml"
sampler:
  backend: $2
incidents:
  dir: $WORK/incidents-$1
processes:
  enabled: false
network:
  backend: "off"
YAML
}

# launch NAME: starts a daemon with NAME's config on a free port; its pid in PID_<NAME>.
launch() {
  "$FLIGHTREC" daemon --web.listen-address=127.0.0.1:0 --config.file="$WORK/$1.yaml" \
    2>"$WORK/$1.log" &
  printf -v "PID_$1" '%s' "$!"
}

# url_of NAME: the URL from NAME's log, once it listens.
url_of() {
  local url pid_var="PID_$1"
  for _ in $(seq 200); do
    url=$(sed -n 's/.*msg=listening url=\([^ ]*\).*/\1/p' "$WORK/$1.log" | head -1)
    if [ -n "$url" ]; then
      echo "$url"
      return 0
    fi
    kill -0 "${!pid_var}" 2>/dev/null || break
    sleep 0.05
  done
  echo "daemon $1 did not start; its log:" >&2
  cat "$WORK/$1.log" >&2
  exit 1
}

now() { date +%s.%N; }

# cpu1_lines URL: the exposition lines of cpu1's CPU time.
cpu1_lines() { grep '^flightrec_cpu_seconds_total{cpu="1"' <<<"$(curl -s "${1}metrics")" || true; }

write_config E ebpf
write_config P procfs
launch E
launch P
URL_E=$(url_of E)
URL_P=$(url_of P)
expect_contains "$(curl -s "${URL_E}metrics")" 'flightrec_sampler_backend_info{backend="ebpf"} 1' \
  "daemon E ticks in the kernel"
expect_contains "$(curl -s "${URL_P}metrics")" 'flightrec_sampler_backend_info{backend="procfs"} 1' \
  "daemon P reads procfs"
sleep 1.5

# However this script ends (a test timeout kills its process group), cpu1 is back within 10 s: a
# watchdog in a session of its own, stopped at the end once the trap has brought cpu1 back.
setsid bash -c "sleep 10; echo 1 >$CPU1" </dev/null >/dev/null 2>&1 &
WATCHDOG=$!
OFF_BEGIN=$(now)
if ! echo 0 2>"$WORK/offline.err" >"$CPU1"; then
  echo "skip: the kernel refused to take cpu1 offline: $(cat "$WORK/offline.err")"
  exit 77
fi
OFF_END=$(now)
sleep 1
for name in E P; do
  url_var="URL_$name"
  expect_eq "$(cpu1_lines "${!url_var}")" "" "daemon $name: /metrics has no cpu1 series while cpu1 is offline"
done
sleep 2
ON_BEGIN=$(now)
bring_cpu1_back
ON_END=$(now)
expect_eq "$(cat "$CPU1")" 1 "cpu1 is back online"
sleep 1.5
for name in E P; do
  url_var="URL_$name"
  expect_eq "$(cpu1_lines "${!url_var}" | wc -l)" 8 "daemon $name: /metrics has cpu1's eight modes again"
  curl -s -o "$WORK/$name.csv" "${!url_var}dump?from=-15s&format=csv"
done

for name in E P; do
  backend=ebpf
  [ "$name" = E ] || backend=procfs
  if python3 "$HERE/cpu_hotplug.py" --backend "$backend" --offline "$OFF_BEGIN" "$OFF_END" \
    --online "$ON_BEGIN" "$ON_END" "$WORK/$name.csv"; then
    pass "daemon $name ($backend): cpu1 absent while offline, every counter monotonic"
  else
    fail "daemon $name ($backend): the recording across the hotplug (checks above)"
  fi
done
finish
