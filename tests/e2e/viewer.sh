#!/usr/bin/env bash
# The incident viewer in headless Chromium (Debian's chromium, driven by playwright-core from
# tests/viewer/package-lock.json): pages for a synthetic incident and /dump window served by
# tests/viewer's server (60 s at 1 ms, hostile process names), and the real daemon's pages once
# its binary embeds the viewer; until then the daemon's incident file through that server.
# Screenshots go to <build>/tests/viewer/artifacts/.
source "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$(dirname "$FLIGHTREC")" && pwd)
viewer_build="$build/tests/viewer"
artifacts="$viewer_build/artifacts"
mkdir -p "$artifacts"
export NODE_PATH="$viewer_build/node_modules"
chromium=${CHROMIUM:-/usr/bin/chromium}
for need in "$viewer_build/viewer_test_server" "$NODE_PATH/playwright-core" "$chromium"; do
  if [ ! -e "$need" ]; then
    echo "FAIL: $need is missing (build the tests: ninja viewer_test_server viewer_browser_test_deps; apt-get install chromium)" >&2
    exit 1
  fi
done

# browse URL NAME ARGS...: the browser checks on one page, screenshot NAME.png.
browse() {
  local url=$1 name=$2
  shift 2
  if node "$here/../viewer/browser_test.js" "$url" "$artifacts/$name.png" "$@" >"$WORK/$name.log" 2>&1; then
    pass "$name: $(grep -c '^ok:' "$WORK/$name.log") browser checks ($(grep -o 'drawn in [0-9]* ms' "$WORK/$name.log"))"
  else
    fail "$name: $(grep 'FAIL' "$WORK/$name.log" | head -5)"
  fi
}

# same_headers URL NAME: HEAD (curl -I) answers with GET's status line and headers (Date aside),
# plain and then gzip-encoded; GET's Content-Length is the page's, not 0. URL must serve a page that
# does not change between the two requests.
same_headers() {
  local url=$1 name=$2 encoding get head
  for encoding in identity gzip; do
    get=$(curl -s -H "Accept-Encoding: $encoding" -D - -o /dev/null "$url" | grep -v '^Date:' || true)
    head=$(curl -s -I -H "Accept-Encoding: $encoding" "$url" | grep -v '^Date:' || true)
    if grep -q '^Content-Length: [1-9]' <<<"$get" && [ "$get" = "$head" ]; then
      pass "$name: HEAD answers GET's headers ($encoding)"
    else
      fail "$name: HEAD and GET headers differ ($encoding): GET: $get HEAD: $head"
    fi
  done
  expect_contains "$head" "Content-Encoding: gzip" "$name: HEAD names the gzip encoding"
}

# The daemon: an incident that fires at once, with a short window.
always_firing_config "$WORK/incidents" 500ms >"$WORK/flightrec.yaml"
start_daemon --config.file="$WORK/flightrec.yaml"
id=$(first_written_incident)
[ -n "$id" ] || fail "the daemon wrote no incident in 10 s"
# Its file, for the test server to serve next to the synthetic one: real series, real devices.
mkdir -p "$WORK/served-incidents"
curl -s -o "$WORK/served-incidents/$id.flightrec" "${URL}incidents/$id?format=raw"
browse "${URL}incidents/$id/view" daemon-incident --trigger --threshold memory
same_headers "${URL}incidents/$id/view" daemon-incident
browse "${URL}dump?format=html&from=-2s" daemon-dump
# From the landing page to the list to the viewer, as a person clicks through them.
if node "$here/../viewer/list_browser_test.js" "$URL" "$id" "$artifacts/daemon-incident-list.png" \
  >"$WORK/daemon-list.log" 2>&1; then
  pass "daemon-list: $(grep -c '^ok:' "$WORK/daemon-list.log") browser checks"
else
  fail "daemon-list: $(grep 'FAIL' "$WORK/daemon-list.log" | head -5)"
fi
stop_daemon

"$viewer_build/viewer_test_server" "$WORK/served-incidents" >"$WORK/server.out" 2>"$WORK/server.log" &
server_pid=$!
for _ in $(seq 100); do
  grep -q '^url=' "$WORK/server.out" && break
  sleep 0.1
done
server_url=$(sed -n 's/^url=\([^ ]*\) .*/\1/p' "$WORK/server.out")
incident=$(sed -n 's/.* incident=//p' "$WORK/server.out")
oom_incident=$(sed -n 's/^oom_incident=//p' "$WORK/server.out")
container_incident=$(sed -n 's/^container_incident=//p' "$WORK/server.out")
memory_incident=$(sed -n 's/^memory_incident=//p' "$WORK/server.out")
alert_incident=$(sed -n 's/^alert_incident=//p' "$WORK/server.out")
if [ -z "$server_url" ]; then
  fail "the viewer test server did not start: $(cat "$WORK/server.log")"
else
  # A CPU rule's: its threshold on the CPU chart, the burner (two CPUs) first, the leaker's growth.
  browse "${server_url}incidents/$incident/view" fixture-incident --trigger --threshold cpu \
    --value "100.0%" --sort cpu --first 400 --growth-first 950
  # A memory rule's: the biggest RSS first (postgres, at little CPU), its value in GiB.
  browse "${server_url}incidents/$memory_incident/view" fixture-memory-incident --trigger \
    --threshold memory --value "2.11 GiB" --sort rss --first 900 --growth-first 950
  # An alert's: its labels as a table, no threshold.
  browse "${server_url}incidents/$alert_incident/view" fixture-alert-incident --trigger \
    --labels alertname=HighLoad,instance=web-1,severity=critical
  # An OOM incident: the kill marked on every chart with its victim, its top consumers listed.
  # (No --trigger: the firing, 4 ms after the kill, is under the kill's line at this zoom.)
  browse "${server_url}incidents/$oom_incident/view" fixture-oom-incident \
    --oom "OOM kill: 900 postgres" --oom-rows 2
  browse "${server_url}dump?format=html" fixture-dump --processes 3 --comm '</script><b>'
  # Container frames: the throttled container's section (its period strip and memory) first.
  browse "${server_url}incidents/$container_incident/view" fixture-container-incident --trigger \
    --containers 'shop/checkout-1/app,web'
  same_headers "${server_url}dump?format=html" fixture-dump
  [ -n "$id" ] && browse "${server_url}incidents/$id/view" recorded-incident --trigger --threshold memory
fi
kill "$server_pid"
wait "$server_pid" 2>/dev/null || true

finish
