#!/usr/bin/env bash
# /dump on the live ring: JSON, CSV and raw windows at full resolution, gzip, and clear 400s and
# 413s for bad or oversized requests.
source "$(dirname "$0")/lib.sh"
printf 'incidents:\n  dir: %s/incidents\nweb:\n  max_dump_bytes: 1MiB\n' "$WORK" >"$WORK/small.yaml"
start_daemon
sleep 2

code=$(curl -s -o "$WORK/last.csv" -w '%{http_code}' "${URL}dump?from=-1s&format=csv")
expect_eq "$code" 200 "GET /dump?from=-1s&format=csv"
rows=$(($(wc -l <"$WORK/last.csv") - 1))
# The default tick is 4 ms: 250 frames a second.
if [ "$rows" -ge 175 ] && [ "$rows" -le 350 ]; then pass "one second is ~250 rows at 4 ms ($rows)"; else fail "one second gave $rows rows"; fi
expect_contains "$(head -1 "$WORK/last.csv")" 'memory_available_bytes' "the CSV header names the series"

python3 - "${URL}dump?from=-500ms&format=json" <<'PY' && pass "JSON parses, rows carry every column" || fail "JSON dump malformed"
import json, sys, urllib.request
doc = json.load(urllib.request.urlopen(sys.argv[1]))
assert len(doc["rows"]) > 90 and all(len(r) == len(doc["columns"]) for r in doc["rows"]), doc.keys()
PY

curl -s -H 'Accept-Encoding: gzip' -D "$WORK/gz.h" -o "$WORK/gz.body" "${URL}dump?from=-200ms&format=csv"
expect_contains "$(cat "$WORK/gz.h")" "Content-Encoding: gzip" "gzip when accepted"
expect_contains "$(gzip -dc "$WORK/gz.body" | head -1)" "time," "and it inflates to CSV"

curl -s -o "$WORK/window.flightrec" "${URL}dump?from=-300ms&format=raw"
expect_contains "$("$FLIGHTREC" dump "$WORK/window.flightrec" --format=csv | head -1)" "time," \
  "a raw dump converts offline with flightrec dump"

bad=$(curl -s -w ' %{http_code}' "${URL}dump?from=yesterday")
expect_contains "$bad" 'from: "yesterday" is not a time' "a bad from names the parameter"
expect_contains "$bad" " 400" "with 400"
expect_contains "$(curl -s -w ' %{http_code}' "${URL}dump?format=xml")" " 400" "an unknown format is 400"
expect_contains "$(curl -s -w ' %{http_code}' "${URL}dump?from=-1s&to=-2s")" " 400" "from after to is 400"
stop_daemon

start_daemon --config.file="$WORK/small.yaml"
sleep 2
expect_contains "$(curl -s -w ' %{http_code}' "${URL}dump?format=csv")" " 413" \
  "a window over web.max_dump_bytes is 413"
stop_daemon
finish
