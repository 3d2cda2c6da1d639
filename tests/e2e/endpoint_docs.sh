#!/usr/bin/env bash
# The docs cannot drift from the routes: docs/SECURITY.md's endpoint table and roles table, and
# docs/ARCHITECTURE.md's Routes table, name every route the daemon serves, with the route's
# methods (and its right, and its role), and nothing else. The landing page lists the routes from
# the router, so it is what the daemon really registers. A route added without a row, or a row
# whose method, right or role differs, fails here; the SECURITY.md row a new route needs is
# printed, ready to paste, with its summary for the prose to start from.
source "$(dirname "$0")/lib.sh"
docs="$(dirname "$0")/../../docs"

start_daemon --web.enable-lifecycle # /-/reload is registered only then
landing=$(curl -sS "$URL")
stop_daemon

# One route per line, tab-separated: methods (GET,HEAD), pattern, summary, role, right. The page
# writes each row on one line: <tr><td>(link or code)</td><td>methods</td><td>summary</td>
# <td>role (right)</td></tr>.
sed -nE 's#^<tr><td>(<a href="[^"]*">|<code>)([^<]*)</(a|code)></td><td>([^<]*)</td><td>(.*)</td><td>([a-z]+) \(([a-z_]+)\)</td></tr>$#\4\t\2\t\5\t\6\t\7#p' \
  <<<"$landing" | sed -e 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&#39;/'"'"'/g; s/&amp;/\&/g' |
  awk 'BEGIN { FS = OFS = "\t" } { gsub(/, /, ",", $1); print }' >"$WORK/routes.tsv"
expect_eq "$(wc -l <"$WORK/routes.tsv")" "$(grep -c '^<tr><td>' <<<"$landing")" \
  "every row of the landing page is read"
expect_contains "$(cut -f2 "$WORK/routes.tsv")" "/-/reload" "the landing page lists /-/reload"
expect_eq "$(awk -F'\t' '$3 == "" { print $2 }' "$WORK/routes.tsv")" "" "every route has a summary"

# docs_routes FILE HEADER [right|role]: the routes a table of FILE names, one "METHODS PATH WHAT"
# line each (sorted). The table is the one whose header row starts with HEADER; each backquoted
# `PATH` or `METHOD, METHOD PATH` of its rows' endpoint cell is a route (no method: GET,HEAD; a
# `PATH?query` is a view of a route, not one). WHAT is, with `right`, the right the last cell gives
# in parentheses, (`read_metrics`); with `role`, the role the first cell names, the endpoints then
# being the second cell's; else nothing.
docs_routes() {
  awk -F'|' -v header="$2" -v what_from="${3:-}" '
    index($0, header) == 1 { table = 1; next }
    table && !/^\|/ { table = 0 }
    table && /^\| `/ {
      what = ""
      if (what_from == "role") what = $2
      if (what_from == "right" && match($(NF - 1), /\(`[a-z_]+`\)/)) {
        what = substr($(NF - 1), RSTART, RLENGTH)
      }
      gsub(/[ `()]/, "", what)
      cell = (what_from == "role") ? $3 : $2
      while (match(cell, /`[^`]*`/)) {
        item = substr(cell, RSTART + 1, RLENGTH - 2)
        cell = substr(cell, RSTART + RLENGTH)
        if (item ~ /\?/) continue
        if (item ~ /^\//) print "GET,HEAD " item " " what
        else if (item ~ /^[A-Z]+(, [A-Z]+)* \//) {
          methods = item; sub(/ \/.*/, "", methods); gsub(/, /, ",", methods)
          path = item; sub(/^[^\/]*/, "", path)
          print methods " " path " " what
        }
      }
    }' "$1" | sort
}

# compare WHAT EXPECTED ACTUAL: passes when both lists match, else shows what differs.
compare() {
  if diff -u <(echo "$2") <(echo "$3") >"$WORK/diff"; then
    pass "$1"
  else
    fail "$1 (- served, + the docs):"
    tail -n +3 "$WORK/diff" >&2
  fi
}

served_rights=$(awk -F'\t' '{ print $1 " " $2 " " $5 }' "$WORK/routes.tsv" | sort)
compare "docs/SECURITY.md's endpoint table names every route, its methods and its right" \
  "$served_rights" "$(docs_routes "$docs/SECURITY.md" '| endpoint | reveals / does |' right)"
served_roles=$(awk -F'\t' '$4 != "none" { print $1 " " $2 " " $4 }' "$WORK/routes.tsv" | sort)
compare "docs/SECURITY.md's roles table puts every route under the role it needs" \
  "$served_roles" "$(docs_routes "$docs/SECURITY.md" '| role | endpoints |' role)"
served_paths=$(awk -F'\t' '{ print $1 " " $2 " " }' "$WORK/routes.tsv" | sort)
compare "docs/ARCHITECTURE.md's Routes table names every route and its methods" \
  "$served_paths" "$(docs_routes "$docs/ARCHITECTURE.md" '| route | component | code |')"

# The rows a route without one needs, from what the daemon says of it.
documented=$(docs_routes "$docs/SECURITY.md" '| endpoint | reveals / does |' | cut -d' ' -f1,2)
while IFS=$'\t' read -r methods path summary role right; do
  grep -qxF "$methods $path" <<<"$documented" && continue
  shown=$path
  [ "$methods" = GET,HEAD ] || shown="${methods//,/, } $path"
  echo "missing from docs/SECURITY.md's endpoint table; a row to start from:" >&2
  echo "| \`$shown\` | ${summary//|/\\|} | \`$role\` (\`$right\`) |" >&2
done <"$WORK/routes.tsv"
finish
