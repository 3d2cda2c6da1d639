#!/usr/bin/env bash
# `flightrec top` in a real terminal (tmux), driven by keys as a top or htop user drives it: M puts
# the process holding 600 MiB first and marks %MEM, P goes back to %CPU, h shows the keys and any
# key returns, q quits. Keys are answered at once, not at the next refresh (the delay is 4 s here),
# and the terminal's modes (canonical input, echo) are restored after q, Ctrl-C and SIGTERM alike,
# and while Ctrl-Z has top stopped.
source "$(dirname "$0")/lib.sh"
command -v tmux >/dev/null || { echo "tmux is not installed" >&2; exit 1; }
SOCKET="$WORK/tmux.sock"
tmuxc() { tmux -S "$SOCKET" "$@"; }
HOG_PID=""
trap 'tmuxc kill-server 2>/dev/null || true; [ -z "$HOG_PID" ] || kill "$HOG_PID" 2>/dev/null || true; cleanup' EXIT

# 600 MiB written, so resident: more than a compiler next to the test holds.
python3 -c 'import time; b = b"x" * (600 << 20); time.sleep(120)' &
HOG_PID=$!
for _ in $(seq 100); do
  [ "$(awk '/^VmRSS:/{print $2}' "/proc/$HOG_PID/status" 2>/dev/null || echo 0)" -gt 600000 ] && break
  sleep 0.05
done

# A session that outlives each top's: a server left without sessions exits, and a new session
# started while it does fails ("server exited unexpectedly").
tmuxc -f /dev/null new-session -d -s keep "sleep 120"

# screen: what the pane shows now.
screen() { tmuxc capture-pane -p -t top; }
# wait_for TEXT [TRIES]: until the pane shows TEXT (every 50 ms); false if it never does.
wait_for() {
  local tries=${2:-100}
  for _ in $(seq "$tries"); do
    grep -qF -- "$1" <<<"$(screen)" && return 0
    sleep 0.05
  done
  return 1
}
# first_pid: the PID of the first row under the column header.
first_pid() { awk '/ PID /{getline; print $1; exit}' <<<"$(screen)"; }
# start_top NAME DELAY: top in a pane whose shell records the terminal's modes before and after it.
start_top() {
  rm -f "$WORK/$1".*
  tmuxc -f /dev/null new-session -d -s top -x 160 -y 40 \
    "stty -a >'$WORK/$1.before'; '$FLIGHTREC' top -d $2; echo \$? >'$WORK/$1.rc'; stty -a >'$WORK/$1.after'; sleep 60"
  wait_for "Tasks:" 200 || fail "$1: top never drew a screen: $(screen)"
}
# expect_restored NAME WHAT: top exited and the modes after equal those before (icanon, echo).
expect_restored() {
  for _ in $(seq 100); do [ -s "$WORK/$1.after" ] && break; sleep 0.05; done
  if [ ! -s "$WORK/$1.after" ]; then fail "$2: top did not exit"; return; fi
  expect_eq "$(cat "$WORK/$1.rc")" 0 "$2: top exits with status 0"
  expect_eq "$(cat "$WORK/$1.after")" "$(cat "$WORK/$1.before")" "$2: the terminal's modes are restored"
  expect_contains "$(cat "$WORK/$1.after")" " icanon " "$2: canonical input is back"
  tmuxc kill-session -t top
}

# --- the first screen at once, the summary lines, then M, P, h and q
started=$(date +%s%N)
start_top keys 4s
first_ms=$((($(date +%s%N) - started) / 1000000))
if [ "$first_ms" -lt 3000 ]; then pass "the first screen came in ${first_ms} ms, not after the 4 s delay"; else
  fail "the first screen took ${first_ms} ms"; fi
expect_contains "$(screen)" "load average:" "the title line has the load average"
expect_contains "$(screen)" "%Cpu(s):" "a %Cpu(s) line"
expect_contains "$(screen)" "MiB Mem :" "a MiB Mem line"
expect_contains "$(screen)" "*%CPU" "%CPU is the sorted column at first"

started=$(date +%s%N)
tmuxc send-keys -t top M
wait_for "*%MEM" 40 || fail "M did not mark %MEM within 2 s: $(screen)"
answered_ms=$((($(date +%s%N) - started) / 1000000))
if [ "$answered_ms" -lt 2000 ]; then pass "M answered in ${answered_ms} ms, before the 4 s refresh"; else
  fail "M took ${answered_ms} ms"; fi
# (The header may be drawn a moment before the rows under it.)
for _ in $(seq 40); do [ "$(first_pid)" = "$HOG_PID" ] && break; sleep 0.05; done
expect_eq "$(first_pid)" "$HOG_PID" "after M the first row is the process holding 600 MiB"

tmuxc send-keys -t top P
wait_for "*%CPU" 40 && pass "P marks %CPU again" || fail "P did not mark %CPU: $(screen)"

tmuxc send-keys -t top h
wait_for "sort by memory" 40 && pass "h shows the keys" || fail "h showed no help: $(screen)"
expect_contains "$(screen)" "Sorted by %CPU." "the help names the sort column"
tmuxc send-keys -t top Space
wait_for "Tasks:" 40 && pass "any key returns from the help" || fail "still in the help: $(screen)"

tmuxc send-keys -t top q
expect_restored keys "q"

# --- Ctrl-C and SIGTERM restore the terminal too
start_top ctrl_c 0.3s
tmuxc send-keys -t top C-c
expect_restored ctrl_c "Ctrl-C"

start_top sigterm 0.3s
top_pid=$(pgrep -n -f -- "$FLIGHTREC top -d 0.3s" || true)
if [ -n "$top_pid" ]; then kill -TERM "$top_pid"; else fail "no top process to signal"; fi
expect_restored sigterm "SIGTERM"

# --- Ctrl-Z gives the shell its terminal back; fg takes it again. (bash also restores its own modes
# when a job stops; what fails without top's own handling is that keys need Enter after fg.)
tmuxc -f /dev/null new-session -d -s top -x 160 -y 40 "env PS1='$ ' bash --norc --noprofile -i"
tmuxc send-keys -t top "'$FLIGHTREC' top -d 0.3s" Enter
wait_for "Tasks:" 200 || fail "Ctrl-Z: top never drew a screen: $(screen)"
tmuxc send-keys -t top C-z
wait_for "Stopped" 100 || fail "Ctrl-Z did not stop top: $(screen)"
tmuxc send-keys -t top "stty -a >'$WORK/stopped.modes'" Enter
for _ in $(seq 100); do [ -s "$WORK/stopped.modes" ] && break; sleep 0.05; done
expect_contains "$(cat "$WORK/stopped.modes" 2>/dev/null)" " icanon " \
  "Ctrl-Z: the shell has canonical input while top is stopped"
tmuxc send-keys -t top fg Enter
wait_for "Tasks:" 100 || fail "fg did not bring top back: $(screen)"
tmuxc send-keys -t top N
wait_for "*PID" 40 && pass "fg: keys are read one at a time again" || fail "N after fg: $(screen)"
tmuxc send-keys -t top q
# Typed before top read the q, the command would be top's keys: wait for it to exit first.
for _ in $(seq 100); do pgrep -f -- "$FLIGHTREC top -d 0.3s" >/dev/null || break; sleep 0.05; done
tmuxc send-keys -t top "stty -a >'$WORK/after-fg.modes'" Enter
for _ in $(seq 100); do [ -s "$WORK/after-fg.modes" ] && break; sleep 0.05; done
expect_eq "$(cat "$WORK/after-fg.modes" 2>/dev/null)" "$(cat "$WORK/stopped.modes")" \
  "q after fg: the shell's modes are restored"
tmuxc kill-session -t top

finish
