#!/usr/bin/env bash
# The incident list for people and the trigger's answer, end to end: POST /-/trigger answers the
# id its incident is stored under (Location, and JSON to a client that asks), and that id is the
# one /incidents lists; GET /incidents is HTML to a browser (negotiated by Accept with q-values,
# or ?format=) and the same JSON as before to curl, with an alert named like markup shown as text;
# the page's replay command line replays the incident; the landing page links the newest
# incidents to a client that may read them, and not to one without the recordings role.
source "$(dirname "$0")/lib.sh"

# Two users: an operator with every role, and a scraper with metrics only (bcrypt at the lowest
# cost, as roles.sh makes them; one Python for both, as its start-up is most of the cost).
python3 -W ignore - "$WORK/web.yml" <<'PY'
import crypt, sys
users = {"ops": "ops-pw", "scraper": "scrape-pw"}
with open(sys.argv[1], "w") as out:
    out.write("basic_auth_users:\n")
    for user, password in users.items():
        salt = crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1 << 4)
        out.write(f"  {user}: '{crypt.crypt(password, salt)}'\n")
PY
grep -q '\$2b\$04\$' "$WORK/web.yml" || { fail "could not make bcrypt hashes: $(cat "$WORK/web.yml")"; finish; }
browser='text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
cat >"$WORK/flightrec.yaml" <<YAML
incidents:
  dir: $WORK/incidents
  alerts:
    pre: 1s
    post: 0s
web:
  roles:
    ops: [metrics, recordings, actions]
    scraper: [metrics]
YAML
start_daemon --config.file="$WORK/flightrec.yaml" --web.config.file="$WORK/web.yml"
# Every request below is the operator's unless it says otherwise.
curl() { command curl -u ops:ops-pw "$@"; }

# The trigger first: its incident takes the manual post window (5 s) to be written, while the rest
# is checked.
answer=$(curl -s -i -H 'Accept: application/json' -X POST "${URL}-/trigger?reason=pages")
expect_contains "$answer" "HTTP/1.1 202" "POST /-/trigger is accepted"
id=$(sed -n 's/^{"id":"\([^"]*\)".*/\1/p' <<<"$answer")
expect_contains "$id" "-manual" "its JSON answer names the id: $id"
expect_contains "$answer" "Location: /incidents/$id" "and so does Location"
expect_contains "$answer" '"status":"accepted","location":"/incidents/'"$id"'","ready_in_seconds":5}' \
  "the JSON says when it will be there"
joined=$(curl -s -i -X POST "${URL}-/trigger?reason=again")
expect_contains "$joined" "Location: /incidents/$id" "a request joining the pending one is told the same id"
expect_contains "$joined" "already pending; this request joins it: $id" "in its text body too"

# An alert named like markup, written within a second (post: 0s).
now_ns=$(date +%s%N)
curl -s -o /dev/null -X POST "${URL}-/trigger/alertmanager" --data @- <<JSON
{"version": "4", "status": "firing", "receiver": "flightrec", "groupKey": "{}:{}",
 "alerts": [{"status": "firing", "labels": {"alertname": "<script>alert(1)</script>"},
  "annotations": {"summary": "disk <b>full</b> & \"slow\""}, "startsAt": "$(rfc3339 "$now_ns")",
  "endsAt": "0001-01-01T00:00:00Z", "generatorURL": "http://prometheus/graph", "fingerprint": "e2e1"}]}
JSON

# type ACCEPT [QUERY]: the Content-Type GET /incidents answers.
type() { curl -s -o /dev/null -w '%{content_type}' -H "Accept: $1" "${URL}incidents${2:-}"; }
expect_eq "$(type "$browser")" "text/html; charset=utf-8" "a browser's Accept gets HTML"
expect_eq "$(type '*/*')" "application/json" "curl's */* keeps JSON"
expect_eq "$(curl -s -o /dev/null -w '%{content_type}' "${URL}incidents")" "application/json" \
  "so does no Accept header at all"
expect_eq "$(type 'text/html;q=0.5, application/json')" "application/json" "q-values: JSON preferred"
expect_eq "$(type 'application/json;q=0.2, text/html;q=0.4')" "text/html; charset=utf-8" \
  "q-values: HTML preferred"
expect_eq "$(type 'text/html;q=0, */*')" "application/json" "q=0 refuses HTML"
expect_eq "$(type "$browser" '?format=json')" "application/json" "?format=json wins over Accept"
expect_eq "$(type '*/*' '?format=html')" "text/html; charset=utf-8" "?format=html wins over Accept"
expect_eq "$(curl -s -w ' %{http_code}' "${URL}incidents?format=xml")" \
  'format: "xml" is not one of json, html
 400' "an unknown format is a 400 naming it"

# Wait for the manual incident: the id /incidents lists is the one the trigger answered.
listed=""
for _ in $(seq 100); do
  listed=$(curl -s "${URL}incidents" | python3 -c "import json, sys
print(' '.join(i['id'] for i in json.load(sys.stdin) if i.get('rule') == 'manual' and i['status'] == 'written'))")
  [ -n "$listed" ] && break
  sleep 0.1
done
expect_eq "$listed" "$id" "/incidents lists the manual incident under the id the trigger answered"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' "${URL}incidents/$id")" 200 "its file is there"
json_all=$(curl -s "${URL}incidents")
expect_contains "$json_all" '"alert.label.alertname":"<script>alert(1)</script>"' "the JSON keeps the alert's name as sent"
expect_eq "$(curl -s -H 'Accept: */*' "${URL}incidents")" "$(curl -s "${URL}incidents?format=json")" \
  "the JSON is the same however it was chosen"

page=$(curl -s -H "Accept: $browser" "${URL}incidents")
expect_contains "$page" "<tr id=\"$id\">" "the page has a row for the manual incident"
expect_contains "$page" "<td>manual</td><td>manual</td><td class=\"value\">-</td><td>pages</td>" \
  "with its kind, rule, value and reason"
expect_contains "$page" "<a href=\"/incidents/$id/view\">view</a>" "a link to its viewer page"
expect_contains "$page" "<a href=\"/incidents/$id\">file</a>" "a link to its file"
expect_contains "$page" "&lt;script&gt;alert(1)&lt;/script&gt;" "the alert's name is escaped"
expect_contains "$page" "disk &lt;b&gt;full&lt;/b&gt; &amp; &quot;slow&quot;" "so is its summary"
if grep -qF '<script>' <<<"$page" || grep -qF '<b>full' <<<"$page"; then
  fail "the page carries the alert's markup"
else
  pass "no markup from the alert reaches the page"
fi
# Newest first: the manual incident was fired before the alert.
alert_row=$(grep -n 'alert(1)' <<<"$page" | head -1 | cut -d: -f1)
manual_row=$(grep -n "<tr id=\"$id\">" <<<"$page" | cut -d: -f1)
if [ -n "$alert_row" ] && [ -n "$manual_row" ] && [ "$alert_row" -lt "$manual_row" ]; then
  pass "newest first"
else
  fail "the rows are not newest first (alert on line $alert_row, manual on $manual_row)"
fi
expect_eq "$(curl -s -o /dev/null -w '%{http_code} %{content_type}' "${URL}incidents/$id/view")" \
  "200 text/html; charset=utf-8" "the view link opens the viewer"

# The command line the page gives, run as a reader would paste it (in batch mode, no terminal).
command=$(sed -n "s|.*<code class=\"cmd\">\(flightrec replay [^<]*/incidents/$id[^<]*\)</code>.*|\1|p" <<<"$page")
replayed=""
expect_eq "$command" "flightrec replay ${URL}incidents/$id --user ops" \
  "the page gives the replay command line, as the user who asked"
if [ -n "$command" ] && replayed=$(FLIGHTREC_PASSWORD=ops-pw "$FLIGHTREC" ${command#flightrec } --batch 2>&1); then
  expect_contains "$replayed" "manual" "and it replays the incident"
else
  fail "the replay command line failed: $replayed"
fi

landing=$(curl -s "$URL")
expect_contains "$landing" "<h2>Newest incidents</h2>" "the landing page has the newest incidents"
expect_contains "$landing" "<a href=\"/incidents/$id/view\">" "linking the manual incident's viewer page"
expect_contains "$landing" '<a href="/incidents">All 2 incidents</a>' "and the whole list"

# Without the recordings role the landing page keeps the incidents to itself, as /incidents does.
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' -u scraper:scrape-pw -H "Accept: $browser" \
  "${URL}incidents")" 403 "without the recordings role the HTML list is refused as the JSON is"
landing=$(curl -s -u scraper:scrape-pw "$URL")
expect_contains "$landing" "<h1>flightrec</h1>" "the landing page is served to the scraper"
if grep -qF "incidents/$id" <<<"$landing" || grep -qF "Newest incidents" <<<"$landing"; then
  fail "the landing page links incidents to a client without the recordings role"
else
  pass "without the recordings role it links no incident"
fi
stop_daemon
finish
