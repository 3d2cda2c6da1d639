#!/usr/bin/env bash
# `flightrec replay` in a real terminal: a detached 80x24 tmux session on the fixture recording
# (tests/replay/data/leak.fltrec: a memory leak, a CPU burner from 1 s, a trigger at 2 s), driven
# with keys, asserting on what the screen shows (capture-pane) after each.
source "$(dirname "$0")/lib.sh"
RECORDING="$(cd "$(dirname "$0")/.." && pwd)/replay/data/leak.fltrec"
# The same recording as an OOM incident: the leak (pid 201) killed at 1.9 s, the rule fired at 2 s.
OOM_RECORDING="$(dirname "$RECORDING")/oom.fltrec"
command -v tmux >/dev/null || { echo "tmux is not installed" >&2; exit 1; }
SOCKET="$WORK/tmux.sock"
tmuxc() { tmux -S "$SOCKET" "$@"; }
trap 'tmuxc kill-server 2>/dev/null || true; cleanup' EXIT

SESSION=""
screen() { tmuxc capture-pane -p -t "$SESSION" "$@"; }
# User names come from this machine's passwd: rows are found by pid. The first table row: line 9 at 80x24 with this recording's 2 CPUs (4 header lines, timeline 2,
# tabs, column names).
first_row() { screen | sed -n 9p; }
# wait_for TEXT: until the screen shows TEXT (the TUI redraws after each key), up to 5 s.
wait_for() {
  for _ in $(seq 100); do
    if grep -qF -- "$1" <<<"$(screen)"; then return 0; fi
    sleep 0.05
  done
  fail "screen never showed '$1'; it shows:"
  screen >&2
  return 1
}
keys() { tmuxc send-keys -t "$SESSION" "$@"; }
# start NAME ENV...: the TUI in a new 80x24 session; the shell reports its exit status after.
start() {
  SESSION=$1
  shift
  tmuxc -f /dev/null new-session -d -s "$SESSION" -x 80 -y 24 \
    "env $* '$FLIGHTREC' replay '$RECORDING' --at start; echo replay-exited-\$?; sleep 30"
}

# The batch view of the same recording works without a terminal.
batch=$("$FLIGHTREC" replay "$RECORDING" --batch --at +1s)
expect_contains "$batch" "time      2025-11-30T05:00:01.000Z (+1.000s of 3s" "batch view at +1s"
# --sort RGROW puts the leak first; --grow-span 1s at the end: 4 process frames of 200 MiB.
batch=$("$FLIGHTREC" replay "$RECORDING" --batch --at end --sort RGROW --grow-span 1s)
expect_contains "$(grep -A1 ' PID USER' <<<"$batch" | tail -1)" "+800M" "batch --sort RGROW --grow-span 1s"

start main TERM=screen
wait_for "2025-11-30T05:00:00.000Z +0.000s/3s" && pass "opens at the start"
expect_contains "$(screen)" "[Processes] Network" "processes tab selected"
expect_contains "$(screen)" "Mem[" "memory meter"
expect_contains "$(screen)" "[#" "cursor at the left end of the timeline"
# No earlier sample at the start: no CPU% yet, so the order falls back to PID.
expect_contains "$(first_row)" " init" "first row at the start"
# 80 columns: DISK R/W, NET TX/RX and TIME+ give way, COMMAND shows the program without its path.
expect_contains "$(screen)" "RSS RGROW COMMAND" "COMMAND follows RGROW at 80 columns"
expect_contains "$(screen)" "RGROW 10s" "the status names RGROW's span, 10s by default"
if grep -qF "DISK R/W" <<<"$(screen)"; then fail "DISK R/W left out at 80 columns"; else
  pass "DISK R/W left out at 80 columns"; fi
expect_contains "$(screen)" "no rate" "no rate at the first sample"

keys ']'
wait_for "2025-11-30T05:00:00.010Z +0.010s/3s" && pass "] steps one sample"
expect_contains "$(screen)" "rate 10ms/1s" "the status says the rate covers 10ms of the 1s asked"
keys '}'
wait_for "2025-11-30T05:00:01.010Z +1.010s/3s" && pass "} steps one second"
keys '}'
wait_for "2025-11-30T05:00:02.010Z +2.010s/3s" && pass "} again"
expect_contains "$(first_row)" "    202 " "the CPU burner (pid 202) leads once it burns"
keys End
wait_for "2025-11-30T05:00:03.000Z +3.000s/3s" && pass "End goes to the end"
expect_contains "$(screen)" "#]" "cursor at the right end of the timeline"
keys Home
wait_for "2025-11-30T05:00:00.000Z +0.000s/3s" && pass "Home goes to the start"
keys i
wait_for "2025-11-30T05:00:02.000Z +2.000s/3s" && pass "i jumps to the trigger"
expect_contains "$(screen)" "trigger: memory_available_bytes < 2e9" "trigger named"

expect_contains "$(screen)" "CPU%v" "sorted by CPU% by default"
keys M
wait_for "MEM%v" && pass "M sorts by MEM%"
expect_contains "$(first_row)" "    201 " "the leak (pid 201) leads by memory"
expect_contains "$(first_row)" "python3 leak.py" "its command without /usr/bin/"
# At 2 s the leak has grown 1600 MiB since the first frame (10 s reaches back to it), 800 MiB in 1 s.
expect_contains "$(first_row)" " +1.6G " "RGROW shows the leak's growth over 10s"
keys w
wait_for "RGROW over 1m00s" && pass "w cycles RGROW's span to 1m"
keys w
wait_for "RGROW over all" && pass "w cycles RGROW's span to all of the recording"
expect_contains "$(screen)" "RGROW all" "the status says which span"
keys w
wait_for "RGROW over 1s" && pass "w cycles RGROW's span to 1s"
expect_contains "$(first_row)" " +800M " "RGROW shows the leak's growth over 1s"
keys w
wait_for "RGROW over 10s" && pass "w comes back to 10s"
keys Right
wait_for "RSS RGROW COMMAND" && pass "Right scrolls the table sideways"
keys Left
wait_for "    PID USER" && pass "Left scrolls back"
keys P
wait_for "CPU%v" && pass "P sorts by CPU%"
expect_contains "$(first_row)" "    202 " "the burner leads by CPU"
keys I
wait_for "CPU%^" && pass "I inverts the order"
keys F6
wait_for "MEM%v" && pass "F6 sorts by the next column, in its natural order"

keys '\' p y t h o n Enter
wait_for "filter: python" && pass "\\ filters"
expect_contains "$(first_row)" "    201 " "the filter keeps the leak"
if grep -qF "    202 " <<<"$(screen)"; then fail "the filter hides the rest"; else pass "the filter hides the rest"; fi
keys F4 Escape
wait_for "h:Help" && pass "Escape in the filter prompt clears it"
expect_contains "$(screen)" "    202 " "all rows back"

keys t
wait_for "(tree)" && pass "t shows the tree"
expect_contains "$(screen)" '`- nginx' "children are indented"
keys t

keys Tab
wait_for "Processes [Network] Connections" && pass "Tab switches to Network"
expect_contains "$(screen)" "XMIT_PK" "network columns"
expect_contains "$(first_row)" "    300     33 eth0" "nginx's traffic"
keys Tab
wait_for "[Connections]" && pass "Tab reaches Connections"
expect_contains "$(screen)" "10.0.0.2:51000" "the web connection"
keys Tab
wait_for "[Listening]" && pass "Tab reaches Listening"
expect_contains "$(screen)" "0.0.0.0:22" "sshd listens"
keys Tab
wait_for "[Sessions]" && pass "Tab reaches Sessions"
expect_contains "$(first_row)" "pts/0       3" "the login session on pts/0 with 3 processes"
keys Tab
wait_for "[Containers]" && pass "Tab reaches Containers"
expect_contains "$(screen)" "no container frames in this recording" "a recording without them says so"
keys Tab
wait_for "[Processes] Network" && pass "Tab comes back to Processes"

keys / s t r e s s
wait_for "Search: stress_" && pass "/ opens the search prompt"
keys Enter
wait_for "h:Help" && pass "Enter closes it"
keys / z z q
wait_for 'Search: zzq_   no match for "zzq"' && pass "a search without a match says so"
keys Escape
wait_for "h:Help" && pass "Escape cancels the search"

keys g
keys '+0.5s' Enter
wait_for "2025-11-30T05:00:00.500Z +0.500s/3s" && pass "g goes to a time"
keys g
keys '+99s' Enter
wait_for "2025-11-30T05:00:03.000Z +3.000s/3s" && pass "g past the end goes to the end"
expect_contains "$(screen)" "is after the recording's end" "and says it clamped"
keys g
keys '05:00:00.5' Enter
wait_for "2025-11-30T05:00:00.500Z +0.500s/3s" && pass "g takes a time of day"

keys h
wait_for "flightrec replay - keys" && pass "h shows the help"
keys x
wait_for "h:Help" && pass "any key leaves the help"

tmuxc resize-window -t main -x 100 -y 30
keys ']'
wait_for "2025-11-30T05:00:00.510Z" && pass "still drawing after a resize"
expect_contains "$(screen | sed -n 30p)" "h:Help" "the key bar moved to the new last line"

keys q
wait_for "replay-exited-0" && pass "q quits with status 0"

# An OOM incident opens (no --at) at the kill, not the firing, with the victim selected.
SESSION=oom
tmuxc -f /dev/null new-session -d -s oom -x 80 -y 24 \
  "env TERM=vt100 NO_COLOR=1 '$FLIGHTREC' replay '$OOM_RECORDING'; echo replay-exited-\$?; sleep 30"
wait_for "2025-11-30T05:00:01.900Z +1.900s/3s" && pass "an OOM incident opens at the kill"
expect_contains "$(screen)" "OOM kill: victim 201 python3 selected" "the status line names the victim"
selected=$(screen -e | grep -F "    201 " | head -1)
expect_contains "$selected" $'\e[1;7m' "the victim's row is selected (bold reverse video)"
keys End
wait_for "2025-11-30T05:00:03.000Z +3.000s/3s" && pass "End leaves the kill"
keys i
wait_for "+1.900s/3s" && pass "i goes back to the kill"
expect_contains "$(screen)" "OOM kill: victim 201 python3 selected" "and selects the victim again"
keys q
wait_for "replay-exited-0" && pass "the OOM replay quits"

# The Containers tab of a recording with container frames (tests/replay/container_fixture.h: a pod's
# container throttled from 1 s, its burner pid 202), and Enter narrowing Processes to it.
SESSION=containers
tmuxc -f /dev/null new-session -d -s containers -x 80 -y 24 \
  "env TERM=screen '$FLIGHTREC' replay '$(dirname "$RECORDING")/containers.fltrec' --at end; echo replay-exited-\$?; sleep 30"
wait_for "2025-11-30T05:00:03.000Z +3.000s/3s" && pass "the container recording opens"
keys C
wait_for "[Containers]" && pass "C opens the Containers tab"
expect_contains "$(first_row)" " 20.0   20.0 100.0  80.0  240M  256M  93.8 prod/checkout-7f9c/app" \
  "the throttled container first: CPU, quota, throttled share and ms per period, memory"
expect_contains "$(screen)" "Periods of prod/checkout-7f9c/app: 19 of 29 periods throttled" "its strip's summary"
expect_contains "$(screen)" "[..........8888888888888888888]" "its period strip"
keys Down
wait_for "Periods of web: no CPU quota" && pass "the strip follows the selection"
keys Up Enter
wait_for "Only the processes of container prod/checkout-7f9c/app (x: all)" && pass "Enter narrows Processes"
expect_contains "$(screen)" "[Processes]" "on the Processes tab"
expect_contains "$(screen | sed -n 10p)" "    202 " "the container's burner is the one row"
if grep -qF "    201 " <<<"$(screen)"; then fail "other processes are hidden"; else pass "other processes are hidden"; fi
keys x
wait_for "all processes again" && pass "x shows every process again"
expect_contains "$(screen)" "    201 " "the leak is back"
keys q
wait_for "replay-exited-0" && pass "the container replay quits"

# A plain vt100 without colour: same screen, meaning in the text, search selects by reverse video.
start plain TERM=vt100 NO_COLOR=1
wait_for "2025-11-30T05:00:00.000Z +0.000s/3s" && pass "vt100 opens"
keys / n g i n x Enter
wait_for "h:Help" && pass "vt100 search"
selected=$(screen -e | grep -F "    300 " | head -1)
expect_contains "$selected" $'\e[1;7m' "the match is selected (bold reverse video)"
# vt100's terminfo names no Home, End, PgUp, PgDn, F5, F6 or F10: tmux sends them as xterm does
# and they must work, or (keys the view has no use for) be dropped whole; never their '[' as a
# step back.
keys '}'
wait_for "2025-11-30T05:00:01.000Z +1.000s/3s" && pass "vt100: } steps one second"
keys IC F12
keys '}'
wait_for "2025-11-30T05:00:02.000Z +2.000s/3s" && pass "vt100: Insert and F12 are dropped whole"
keys Home
wait_for "2025-11-30T05:00:00.000Z +0.000s/3s" && pass "vt100: Home goes to the start"
keys End
wait_for "2025-11-30T05:00:03.000Z +3.000s/3s" && pass "vt100: End goes to the end"
keys F5
wait_for "(tree)" && pass "vt100: F5 shows the tree"
keys F5
keys F4 p y Escape
wait_for "h:Help" && pass "vt100: a lone Escape still cancels a prompt"
keys q
wait_for "replay-exited-0" && pass "vt100 quits"

finish
