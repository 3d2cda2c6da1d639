#!/usr/bin/env bash
# Bytes from outside flightrec, in the shapes of issue 21: a process that names itself with a byte
# that is not UTF-8 and an escape sequence (prctl PR_SET_NAME: any user may) and whose argv holds a
# terminal-title sequence and a newline; a config key with an escape sequence; a trigger reason
# and a webhook body with a raw 0xFF. /metrics must stay valid UTF-8 in both formats (promtool and
# a real Prometheus scrape accept it: one such name once made `up` 0 for the whole node), and
# what reaches a terminal (`flightrec top`, check-config), the log or an HTTP error must be
# printable UTF-8. Then, on a fixture /proc, an interface whose name holds an escape sequence and a
# byte that is not UTF-8: CSV output writes it as printable UTF-8; a config file and an incident
# directory with such names: every command and the log echo them escaped; a symbolic link named
# like an incident is skipped, not followed or quarantined.
source "$(dirname "$0")/lib.sh"
command -v tmux >/dev/null || { echo "tmux is not installed" >&2; exit 1; }
SOCKET="$WORK/tmux.sock"
tmuxc() { tmux -S "$SOCKET" "$@"; }
HOSTILE_PID=""
trap 'tmuxc kill-server 2>/dev/null || true; [ -z "$HOSTILE_PID" ] || kill "$HOSTILE_PID" 2>/dev/null || true; cleanup' EXIT

# check_text MODE FILE: MODE utf8, the file is valid UTF-8; MODE printable, also without control
# characters (C0 but newline and tab, DEL, C1); MODE csv, printable with CRLF line ends (RFC 4180).
# Prints what is wrong and fails otherwise.
check_text() {
  python3 - "$@" <<'PY'
import sys, unicodedata
mode, path = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
try:
    text = data.decode("utf-8")
except UnicodeDecodeError as error:
    sys.exit(f"not UTF-8: {error}: {data[max(0, error.start - 40):error.end + 20]!r}")
if mode == "csv":
    text = text.replace("\r\n", "\n")
if mode in ("printable", "csv"):
    bad = [c for c in text if unicodedata.category(c) == "Cc" and c not in "\n\t"]
    if bad:
        sys.exit(f"control characters: {sorted(set(bad))!r}")
PY
}
expect_text() {
  local why
  if why=$(check_text "$1" "$2" 2>&1); then pass "$3"; else fail "$3: $why"; fi
}

# The hostile process burns CPU so that it enters the top-N of /metrics and of `top`.
python=$(python3 -c 'import sys; print(sys.executable)')
(exec -a "$(printf 'evil\033]0;pwn\007\nsecond')" "$python" -c '
import ctypes, time
ctypes.CDLL(None).prctl(15, b"ux\xffbad\x1b[1m", 0, 0, 0)  # PR_SET_NAME
end = time.monotonic() + 90
while time.monotonic() < end: pass
') &
HOSTILE_PID=$!
# Its comm as /metrics writes it: 0xFF as U+FFFD (as /dump shows it); ESC is valid UTF-8 and stays.
shown_comm=$(printf 'ux\357\277\275bad\033[1m')
# Its command line as a terminal table shows it: every control character a '?'.
shown_argv0='evil?]0;pwn??second'

printf 'export:\n  window: 2s\nincidents:\n  dir: %s/incidents\n' "$WORK" >"$WORK/flightrec.yaml"
start_daemon --config.file="$WORK/flightrec.yaml"
for _ in $(seq 100); do
  curl -s "${URL}metrics" >"$WORK/text.prom"
  grep -q "^flightrec_top_process_cpu_ratio{pid=\"$HOSTILE_PID\"" "$WORK/text.prom" && break
  sleep 0.1
done

# --- /metrics: text 0.0.4 and OpenMetrics
expect_contains "$(cat "$WORK/text.prom")" \
  "flightrec_top_process_cpu_ratio{pid=\"$HOSTILE_PID\",comm=\"$shown_comm\"}" \
  "text 0.0.4 ranks the process, its comm with U+FFFD for the byte that is not UTF-8"
expect_text utf8 "$WORK/text.prom" "text 0.0.4 is valid UTF-8"
set +e
lint=$(promtool check metrics <"$WORK/text.prom" 2>&1)
lint_status=$?
set -e
expect_eq "$lint_status $lint" "0 " "promtool check metrics accepts the text 0.0.4"
curl -s -H 'Accept: application/openmetrics-text;version=1.0.0' "${URL}metrics" >"$WORK/om.txt"
expect_contains "$(cat "$WORK/om.txt")" \
  "flightrec_top_process_cpu_ratio{pid=\"$HOSTILE_PID\",comm=\"$shown_comm\"}" \
  "OpenMetrics writes the same comm"
expect_text utf8 "$WORK/om.txt" "OpenMetrics is valid UTF-8"
target=${URL#http://}
start_prometheus "${target%/}"
expect_eq "$(prom_value 'count(flightrec_top_process_cpu_ratio{comm="ux\uFFFDbad\x1b[1m"})')" 1 \
  "Prometheus stored the comm label as /metrics wrote it"
stop_prometheus

# --- flightrec top: batch, and interactive in a terminal
"$FLIGHTREC" top -b -n 1 -d 0.3s >"$WORK/top.txt"
expect_text printable "$WORK/top.txt" "top -b prints printable UTF-8"
row=$(grep -F "$shown_argv0" "$WORK/top.txt" || true)
expect_eq "$(awk '{print $1}' <<<"$row")" "$HOSTILE_PID" "top -b shows the command line on the process's own row"

tmuxc -f /dev/null new-session -d -s top -x 200 -y 50 "'$FLIGHTREC' top -d 0.3s"
for _ in $(seq 100); do
  grep -qF -- "$shown_argv0" <<<"$(tmuxc capture-pane -p -t top)" && break
  sleep 0.05
done
expect_contains "$(tmuxc capture-pane -p -t top)" "$shown_argv0" "top shows the command line on one row"
title=$(tmuxc display-message -p -t top '#{pane_title}')
if [ "$title" = pwn ]; then fail "the command line set the terminal's title"; else
  pass "the terminal's title is untouched ($title)"; fi
tmuxc kill-session -t top

# --- check-config echoing a key with an escape sequence
printf 'sampler:\n  "r\\e[2Jate": 4ms\n' >"$WORK/bad-key.yaml"
"$FLIGHTREC" check-config "$WORK/bad-key.yaml" >"$WORK/check.txt" 2>&1 || true
expect_text printable "$WORK/check.txt" "check-config prints printable UTF-8"
expect_contains "$(cat "$WORK/check.txt")" '"sampler.r\x1b[2Jate": unknown key' \
  "check-config quotes the key with its escape sequence escaped"

# --- the log and an HTTP error body
status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "${URL}-/trigger?reason=disk%FF%1B%5B2J")
expect_eq "$status" 202 "a manual incident with a hostile reason is accepted"
printf '{"version":"4","status":"\377\033[2J"}' >"$WORK/payload.json"
status=$(curl -s -o "$WORK/refused.txt" -w '%{http_code}' -X POST --data-binary @"$WORK/payload.json" \
  "${URL}-/trigger/alertmanager")
expect_eq "$status" 400 "a webhook body that is not UTF-8 is refused"
expect_text printable "$WORK/refused.txt" "the 400 body is printable UTF-8"
expect_contains "$(cat "$WORK/refused.txt")" '\xff' "the 400 body shows the bad byte escaped"

stop_daemon
expect_eq "$STOP_STATUS" 0 "daemon exits 0"
expect_contains "$(cat "$WORK/daemon.log")" 'msg="manual incident requested" reason="disk\xff\x1b[2J"' \
  "the log writes the reason quoted and escaped"
expect_text printable "$WORK/daemon.log" "the whole log is printable UTF-8"

# --- device names in CSV, file and directory names, a link in the incident directory
# Only root names a network interface, and the kernel then takes any byte but '/', ':' and white
# space: a copy of a fixture /proc holds one with an escape sequence, a 0xFF and a comma. File
# names are any bytes but '/' and NUL: the config file's, the incident directory's.
HOSTILE=$'\e[1m\xff'
SHOWN='\x1b[1m\xff'  # as messages write it
cp -r "$FLIGHTREC_FIXTURES/proc-debian12-vm" "$WORK/proc"
python3 - "$WORK/proc/net/dev" <<'PY'
import sys
path = sys.argv[1]
data = open(path, "rb").read().replace(b"  eth0:", b"eth\x1b[1m\xff,0:")
open(path, "wb").write(data)
PY
# The column as CSV writes it: the byte that is not UTF-8 as U+FFFD, ESC as \x1b, quotes doubled.
csv_column=$(printf 'network_receive_bytes_total{device=""eth\\x1b[1m\357\277\275,0""}')
inc_dir="$WORK/in${HOSTILE}cidents"
mkdir -p "$inc_dir"
# A link named like an incident, to a file that is no recording: followed as root, it was read,
# judged corrupt and the link renamed to .corrupt.
echo "somebody's data" >"$WORK/outside.txt"
ln -s "$WORK/outside.txt" "$inc_dir/20251130T050003.000Z-link.flightrec"
conf="$WORK/conf${HOSTILE}.yaml"
# A rule that fires on the first frame and is written 100 ms later: an incident file at once.
printf 'incidents:\n  dir: %s\nprocesses:\n  short_lived: false\nnetwork:\n  backend: "off"\n%s\n' \
  "$inc_dir" 'triggers: [{name: at_once, signal: memory_used_bytes, op: ">", value: 0, pre: 1s, post: 100ms}]' \
  >"$conf"

"$FLIGHTREC" check-config "$conf" >"$WORK/check-ok.txt" 2>&1
expect_text printable "$WORK/check-ok.txt" "check-config's summary is printable UTF-8"
expect_contains "$(cat "$WORK/check-ok.txt")" "$WORK/conf$SHOWN.yaml: OK" \
  "check-config names the file with its escape sequence escaped"
start_refused --config.file="$WORK/missing$HOSTILE.yaml"
printf '%s' "$START_OUTPUT" >"$WORK/refused-start.txt"
expect_text printable "$WORK/refused-start.txt" "the daemon's --config.file error is printable UTF-8"
expect_contains "$START_OUTPUT" "$WORK/missing$SHOWN.yaml: config file given with --config.file" \
  "the daemon's --config.file error names the file escaped"

: >"$WORK/daemon.log"
start_daemon --config.file="$conf" --path.procfs="$WORK/proc" \
  --path.cgroupfs="$FLIGHTREC_FIXTURES/sys-debian12-vm/fs/cgroup"
sleep 0.3  # some frames
curl -s "${URL}dump?from=-1s&format=csv" >"$WORK/dump.csv"
expect_text csv "$WORK/dump.csv" "/dump?format=csv is printable UTF-8"
expect_contains "$(head -1 "$WORK/dump.csv")" "$csv_column" \
  "/dump?format=csv writes the interface's name escaped in its column"
id=$(first_written_incident)
curl -s "${URL}incidents/$id?format=csv" >"$WORK/incident.csv"
expect_text csv "$WORK/incident.csv" "/incidents/ID?format=csv is printable UTF-8"
expect_contains "$(head -1 "$WORK/incident.csv")" "$csv_column" "/incidents/ID?format=csv the same"
wait_incident_scan
stop_daemon
expect_text printable "$WORK/daemon.log" "the log naming the incident directory is printable UTF-8"
expect_contains "$(cat "$WORK/daemon.log")" \
  "skipping an entry named like an incident that is not a regular file\" count=1 names=\"$WORK/in${SHOWN}cidents/20251130T050003.000Z-link.flightrec (a symbolic link, not a regular file)\"" \
  "the daemon names the link it skipped, once"
expect_eq "$(readlink "$inc_dir/20251130T050003.000Z-link.flightrec")" "$WORK/outside.txt" \
  "the link is left as it was"
expect_eq "$(find "$inc_dir" -name '*.corrupt*' | wc -l)" 0 "nothing was quarantined"

"$FLIGHTREC" dump "$inc_dir/$id.flightrec" --format=csv >"$WORK/file.csv"
expect_text csv "$WORK/file.csv" "flightrec dump --format=csv is printable UTF-8"
expect_contains "$(head -1 "$WORK/file.csv")" "$csv_column" "flightrec dump --format=csv the same"
set +e
"$FLIGHTREC" dump "$WORK/none$HOSTILE.flightrec" --format=csv >"$WORK/dump-err.txt" 2>&1
"$FLIGHTREC" replay "$WORK/none$HOSTILE.flightrec" --batch >"$WORK/replay-err.txt" 2>&1
"$FLIGHTREC" incidents --dir="$inc_dir" >"$WORK/incidents.txt" 2>&1
"$FLIGHTREC" incidents "$id" --dir="$inc_dir" >"$WORK/incident.txt" 2>&1
"$FLIGHTREC" incidents --dir="$WORK/none$HOSTILE" >"$WORK/incidents-err.txt" 2>&1
set -e
for out in dump-err replay-err incidents incident incidents-err; do
  expect_text printable "$WORK/$out.txt" "$out: printable UTF-8"
done
expect_contains "$(cat "$WORK/dump-err.txt")" "$WORK/none$SHOWN.flightrec: cannot open" \
  "flightrec dump names a missing file escaped"
expect_contains "$(cat "$WORK/replay-err.txt")" "$WORK/none$SHOWN.flightrec: cannot open" \
  "flightrec replay names a missing file escaped"
expect_contains "$(cat "$WORK/incidents.txt")" \
  "skipped: $WORK/in${SHOWN}cidents/20251130T050003.000Z-link.flightrec: a symbolic link, not a regular file" \
  "flightrec incidents lists the link as skipped, its directory escaped"
expect_contains "$(cat "$WORK/incident.txt")" "$WORK/in${SHOWN}cidents/$id.flightrec" \
  "flightrec incidents ID names its file escaped"
expect_contains "$(cat "$WORK/incidents-err.txt")" "$WORK/none$SHOWN" \
  "flightrec incidents names a missing directory escaped"
finish
