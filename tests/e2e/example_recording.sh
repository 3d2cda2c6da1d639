#!/usr/bin/env bash
# The example recording the README offers first (examples/memory-leak.flightrec, made by
# examples/make-memory-leak.sh) still reads with this build, and replay still points at its
# culprit: the leaking process tops the memory ordering at the trigger point, after growing. Also
# the alert rules docs/RUNBOOK.md starts from (examples/prometheus/), through promtool.
source "$(dirname "$0")/lib.sh"
EXAMPLES="$(cd "$(dirname "$0")/../.." && pwd)/examples"
RECORDING="$EXAMPLES/memory-leak.flightrec"
[ -f "$RECORDING" ] || { fail "$RECORDING is missing"; finish; }

if "$FLIGHTREC" dump "$RECORDING" --format json >"$WORK/dump.json" 2>"$WORK/dump.err"; then
  pass "flightrec dump reads the example"
else
  fail "flightrec dump failed: $(cat "$WORK/dump.err")"
fi
# The trigger time as Unix seconds with nanoseconds, straight from the incident's metadata.
if fired_at=$(python3 - "$WORK/dump.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["metadata"]["incident.rule"] == "memory_leak", doc["metadata"]
assert doc["metadata"].get("incident.condition", "").startswith("memory_used_bytes > "), \
    "the incident carries no condition: regenerate it with examples/make-memory-leak.sh"
assert len(doc["rows"]) > 1000, f"only {len(doc['rows'])} system rows"
assert len(doc["processes"]) >= 10, f"only {len(doc['processes'])} process frames"
commands = {p[doc["process_columns"].index("cmdline")] for f in doc["processes"] for p in f["processes"]}
assert any("leaky_cache.py" in c for c in commands), "no leaky_cache.py process in any frame"
ns = int(doc["metadata"]["incident.fired_at_ns"])
print(f"{ns // 10**9}.{ns % 10**9:09d}")
PY
); then
  pass "the dump has system rows, process frames with leaky_cache.py, and a trigger ($fired_at)"
else
  fail "the dump's content is not the memory-leak example"
fi
[ -n "$fired_at" ] || finish # the checks below need the trigger time

# Recorded in namespaces of its own (make-memory-leak.sh): the scenario's processes and nothing of
# the machine it was made on. The host name is the namespace's, pid 1 is the script, every process
# descends from it, there are no kernel threads, no host daemons, no paths of a checkout, and few
# pids in all.
if out=$(python3 - "$WORK/dump.json" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["host"] == "example", f"host {doc['host']!r}: the build machine's name"
col = {name: i for i, name in enumerate(doc["process_columns"])}
rows = {}
for frame in doc["processes"]:
    for p in frame["processes"]:
        rows[p[col["pid"]]] = p
parent = {pid: p[col["ppid"]] for pid, p in rows.items()}
assert 1 in rows and "make-memory-leak.sh" in rows[1][col["cmdline"]], \
    f"pid 1 is {rows.get(1, [None] * len(col))[col['cmdline']]!r}, not the scenario's script"
for pid in rows:
    seen, up = set(), pid
    while up != 1:
        assert up in parent and up not in seen, f"pid {pid} does not descend from the script"
        seen.add(up)
        up = parent[up]
comms = {p[col["comm"]] for p in rows.values()}
host = comms & {"systemd", "init", "sshd", "cron", "dbus-daemon", "agetty", "kthreadd", "dockerd",
                "containerd", "ninja", "make", "cmake"}
assert not host, f"processes of the build machine: {sorted(host)}"
assert not any(p[col["kernel_thread"]] for p in rows.values()), "kernel threads are listed"
paths = [p[col["cmdline"]] for p in rows.values() if "/work/" in p[col["cmdline"]] or
         "/home/" in p[col["cmdline"]] or "/build/" in p[col["cmdline"]]]
assert not paths, f"command lines with the build machine's paths: {paths}"
assert len(rows) <= 60, f"{len(rows)} pids: more than the scenario starts"
assert {"flightrec", "leaky-cache", "chunk-server", "cc1plus"} <= comms, sorted(comms)
print(len(rows), "pids:", " ".join(sorted(comms)))
PY
); then
  pass "only the scenario's processes are recorded ($out)"
else
  fail "the example records more than its scenario: $out"
fi

# top_by_memory AT: "pid rss_bytes command" of the first row sorted by MEM%.
top_by_memory() {
  "$FLIGHTREC" replay "$RECORDING" --batch --at "$1" --sort MEM% --format json | python3 -c '
import json, sys
row = json.load(sys.stdin)["rows"][0]
print(row["pid"], row["rss_bytes"], row["command"])'
}
read -r leak_pid leak_rss leak_command <<<"$(top_by_memory "$fired_at")"
expect_contains "$leak_command" "leaky_cache.py" "at the trigger, the leaking process uses the most memory"
if [ "${leak_rss:-0}" -ge $((256 << 20)) ]; then pass "its RSS is ${leak_rss} bytes (>= 256 MiB)"; else
  fail "its RSS at the trigger is only '${leak_rss}' bytes"; fi
[ -n "$leak_pid" ] || finish

# 4 s before the trigger it held far less (the cache grows by up to 128 MiB/s, slower on a busy
# machine): time travel shows the growth.
early_at=$(python3 -c 'import sys; s, ns = sys.argv[1].split("."); print(f"{int(s) - 4}.{ns}")' "$fired_at")
early_rss=$("$FLIGHTREC" replay "$RECORDING" --batch --at "$early_at" --format json | python3 -c '
import json, sys
rows = [r for r in json.load(sys.stdin)["rows"] if r["pid"] == int(sys.argv[1])]
print(rows[0]["rss_bytes"] if rows else 0)' "$leak_pid")
if [ "$early_rss" -le $((leak_rss - (128 << 20))) ]; then
  pass "4 s before it held $early_rss bytes: at least 128 MiB less"
else
  fail "4 s before it already held $early_rss bytes of its $leak_rss"
fi

# RGROW: sorted by growth over the last second before the trigger, the leak comes first, and the
# JSON says by how much (it grows by up to 128 MiB/s; at least 32 MiB on a busy machine).
read -r grow_pid grow_bytes grow_span <<<"$("$FLIGHTREC" replay "$RECORDING" --batch --sort RGROW \
  --grow-span 1s --format json | python3 -c '
import json, sys
doc = json.load(sys.stdin)
print(doc["rows"][0]["pid"], doc["rows"][0]["rss_growth_bytes"], doc["grow_span"])')"
if [ "$grow_pid" = "$leak_pid" ] && [ "${grow_bytes:-0}" -ge $((32 << 20)) ] && [ "$grow_span" = 1s ]; then
  pass "sorted by RGROW over 1s the leak comes first, grown $grow_bytes bytes"
else
  fail "sorted by RGROW over 1s the first row is pid '$grow_pid' grown '$grow_bytes' (span '$grow_span')"
fi

text=$("$FLIGHTREC" replay "$RECORDING" --batch --sort MEM%)
expect_contains "$text" "trigger   memory_leak: memory_used_bytes > " \
  "the text view names the rule that fired and its condition (replay's d shows the same)"
expect_contains "$(grep -A2 '^ *PID USER' <<<"$text" | sed -n 2p)" "leaky_cache.py" \
  "and its first row (at the trigger by default) is the leaking process"

if out=$(cd "$EXAMPLES/prometheus" && promtool check rules flightrec-alerts.yml 2>&1 &&
  promtool test rules flightrec-alerts.test.yml 2>&1); then
  pass "the runbook's alert rules pass promtool check rules and their unit tests"
else
  fail "examples/prometheus: $out"
fi
finish
