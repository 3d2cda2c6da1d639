# Per-process network attribution against known traffic: a child sends exactly N bytes over TCP on
# loopback and another M bytes over UDP; `flightrec top --net --batch` must charge each to the
# right PID within 1% with eBPF, and the TCP bytes within 1% (UDP not at all, as documented in
# docs/NETWORK.md) with the sock_diag fallback forced. Needs root (CI runs as root).
source "$(dirname "$0")/lib.sh"
HERE=$(dirname "$0")
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: loading BPF programs and reading every process's sockets needs root"
  exit 77
fi

TCP_BYTES=4194304
UDP_BYTES=2000000

# run_case BACKEND: top samples every 0.5 s while the traffic runs, so the screens' per-interval
# rows add up to everything each process moved after top started.
run_case() {
  local backend=$1
  "$FLIGHTREC" top --net --batch -n 8 -d 0.5 --backend="$backend" >"$WORK/top-$backend.txt" \
    2>"$WORK/top-$backend.err" &
  local top_pid=$!
  sleep 1.2  # programs loaded, first sample taken
  python3 "$HERE/net_traffic.py" --tcp-bytes $TCP_BYTES --udp-bytes $UDP_BYTES --hold 4 \
    >"$WORK/traffic-$backend.json"
  wait "$top_pid" || fail "$backend: top exited with $?: $(cat "$WORK/top-$backend.err")"
}

# kb_sum FILE PID COLUMN: the column (6 = XMIT_KB, 7 = RECV_KB) summed over every screen's row of PID.
kb_sum() {
  awk -v pid="$2" -v col="$3" '$1 == pid && NF >= 10 { sum += $col } END { printf "%.1f", sum }' "$1"
}

# pid_of FILE NAME / bytes_of FILE NAME: from the traffic generator's report.
pid_of() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]]['pid'])" "$1" "$2"; }
bytes_of() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]]['bytes'])" "$1" "$2"; }

# expect_within MEASURED_KB WANT_BYTES PERCENT WHAT
expect_within() {
  if python3 -c "import sys; m, w, p = map(float, sys.argv[1:]); sys.exit(0 if abs(m * 1024 - w) <= w * p / 100 else 1)" "$1" "$2" "$3"; then
    pass "$4: $1 KiB for $2 bytes"
  else
    fail "$4: $1 KiB measured for $2 bytes (more than $3% off)"
  fi
}

run_case ebpf
expect_contains "$(head -1 "$WORK/top-ebpf.txt")" "backend: ebpf" "top runs the eBPF backend"
T=$WORK/traffic-ebpf.json
expect_within "$(kb_sum "$WORK/top-ebpf.txt" "$(pid_of "$T" tcp_sender)" 6)" $TCP_BYTES 1 "eBPF: TCP sender's transmit"
expect_within "$(kb_sum "$WORK/top-ebpf.txt" "$(pid_of "$T" tcp_receiver)" 7)" $TCP_BYTES 1 "eBPF: TCP receiver's receive"
expect_within "$(kb_sum "$WORK/top-ebpf.txt" "$(pid_of "$T" udp_sender)" 6)" $UDP_BYTES 1 "eBPF: UDP sender's transmit"
expect_within "$(kb_sum "$WORK/top-ebpf.txt" "$(pid_of "$T" udp_receiver)" 7)" "$(bytes_of "$T" udp_receiver)" 1 "eBPF: UDP receiver's receive"
expect_eq "$(kb_sum "$WORK/top-ebpf.txt" "$(pid_of "$T" tcp_sender)" 7)" "0.0" "eBPF: nothing received is charged to the TCP sender"

run_case sock_diag
expect_contains "$(head -1 "$WORK/top-sock_diag.txt")" "backend: sock_diag" "top runs the forced sock_diag backend"
T=$WORK/traffic-sock_diag.json
expect_within "$(kb_sum "$WORK/top-sock_diag.txt" "$(pid_of "$T" tcp_sender)" 6)" $TCP_BYTES 1 "sock_diag: TCP sender's transmit"
expect_within "$(kb_sum "$WORK/top-sock_diag.txt" "$(pid_of "$T" tcp_receiver)" 7)" $TCP_BYTES 1 "sock_diag: TCP receiver's receive"
expect_eq "$(kb_sum "$WORK/top-sock_diag.txt" "$(pid_of "$T" udp_sender)" 6)" "0.0" "sock_diag: UDP is not counted (documented limit)"

finish
