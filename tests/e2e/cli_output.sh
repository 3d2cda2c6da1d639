#!/usr/bin/env bash
# What the commands do with the files a user names: snapshot --output follows symlinks and writes
# devices and FIFOs straight through (never replacing them), a FIFO as the config file is refused
# at once, every command reports a failed write to standard output, and dump reads a pipe.
source "$(dirname "$0")/lib.sh"
RECORDING="$(cd "$(dirname "$0")/../.." && pwd)/examples/memory-leak.flightrec"
cd "$WORK"

# --- snapshot --output -------------------------------------------------------------------------
mkdir real
echo old >real/target.txt
ln -s real/target.txt link.json
if "$FLIGHTREC" snapshot --format=json --output=link.json 2>snap.err; then
  pass "snapshot --output to a symlink succeeds"
else
  fail "snapshot --output to a symlink: $(cat snap.err)"
fi
[ -L link.json ] && pass "the symlink stays a symlink" || fail "the symlink was replaced"
expect_contains "$(head -c 200 real/target.txt)" '"' "its target holds the snapshot"
expect_eq "$(ls real)" "target.txt" "no temporary file is left next to the target"

ln -s later.json dangling.json
"$FLIGHTREC" snapshot --output=dangling.json 2>/dev/null
[ -L dangling.json ] && [ -s later.json ] && pass "a dangling symlink's target is created" ||
  fail "a dangling symlink was not followed"

mkdir outdir
status=0
"$FLIGHTREC" snapshot --output=outdir 2>dir.err || status=$?
expect_eq "$status" 1 "snapshot --output=DIR exits 1"
expect_contains "$(cat dir.err)" "cannot write outdir: Is a directory" "and names the directory"

mkfifo out.fifo
timeout 20 cat out.fifo >from_fifo.txt &  # bounded: a build that replaces the FIFO never opens it
reader=$!
timeout -s KILL 30 "$FLIGHTREC" snapshot --output=out.fifo 2>fifo.err ||
  fail "snapshot --output=FIFO: $(cat fifo.err)"
wait "$reader" || true
[ -p out.fifo ] && pass "a FIFO stays a FIFO" || fail "the FIFO was replaced"
[ -s from_fifo.txt ] && pass "the snapshot went through the FIFO" || fail "nothing came out of the FIFO"

# /dev/stdout's own chain (a link to /proc/self/fd/1), built here: as root, a build that renames
# over the path it is given would replace the system's /dev/stdout with a regular file.
ln -s /proc/self/fd/1 stdout
piped=$("$FLIGHTREC" snapshot --output=stdout 2>stdout.err | wc -c)
[ "$piped" -gt 0 ] && pass "--output=/dev/stdout into a pipe" ||
  fail "--output=/dev/stdout into a pipe: $(cat stdout.err)"
{
  echo header
  "$FLIGHTREC" snapshot --output=stdout 2>/dev/null
} >to_file.txt
expect_eq "$(head -1 to_file.txt)" "header" "--output=/dev/stdout into a file keeps what came before"
[ "$(wc -l <to_file.txt)" -gt 1 ] && pass "and adds the snapshot" || fail "no snapshot after the header"

if [ "$(id -u)" -eq 0 ]; then
  mknod mynull c 1 3
  "$FLIGHTREC" snapshot --output=mynull 2>/dev/null || fail "snapshot --output=device failed"
  [ -c mynull ] && pass "a character device stays a device" || fail "the device node was replaced"
else
  echo "skip: mknod needs root; the device-node case is not checked"
fi

# --- a FIFO as the config file -----------------------------------------------------------------
mkfifo f.yaml
for command in "check-config f.yaml" "daemon --config.file=f.yaml" "check-config --config.file=f.yaml"; do
  status=0
  # shellcheck disable=SC2086 # the command's words
  timeout -s KILL 10 "$FLIGHTREC" $command --web.listen-address=127.0.0.1:0 2>fifo_config.err ||
    status=$?
  expect_eq "$status" 1 "flightrec $command exits 1 at once"
  expect_contains "$(cat fifo_config.err)" "f.yaml: cannot read config file: not a regular file" \
    "and says f.yaml is not a regular file"
done

# --- a failed write to standard output ---------------------------------------------------------
mkdir incidents_dir
want="flightrec: cannot write the output: No space left on device"
while IFS= read -r command; do
  status=0
  # shellcheck disable=SC2086 # the command's words
  $command >/dev/full 2>full.err || status=$?
  expect_eq "$status" 1 "${command#"$FLIGHTREC" } >/dev/full exits 1"
  expect_eq "$(cat full.err)" "$want" "and says why, once"
done <<EOF
$FLIGHTREC --help
$FLIGHTREC check-config --print-defaults
$FLIGHTREC incidents --dir=$WORK/incidents_dir
$FLIGHTREC snapshot
$FLIGHTREC replay $RECORDING --batch
$FLIGHTREC top -b -n 1
$FLIGHTREC dump $RECORDING --format=csv
EOF

# --- dump from a pipe --------------------------------------------------------------------------
"$FLIGHTREC" dump "$RECORDING" >from_file.json
if cat "$RECORDING" | "$FLIGHTREC" dump /dev/stdin >from_pipe.json 2>pipe.err; then
  pass "dump /dev/stdin reads a recording from a pipe"
else
  fail "dump /dev/stdin: $(cat pipe.err)"
fi
cmp -s from_file.json from_pipe.json && pass "and writes what dump FILE writes" ||
  fail "dump from a pipe differs from dump of the file"

finish
