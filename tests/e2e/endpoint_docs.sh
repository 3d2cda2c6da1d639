#!/usr/bin/env bash
# docs/SECURITY.md cannot drift from the routes: its endpoint table and its roles table name every
# route the daemon serves, with the route's methods, its right and its role, and nothing else. The
# landing page lists the routes from the router, so it is what the daemon really registers. A route
# added without a row, or a row whose method, right or role differs, fails here; the rows a new
# route needs are printed, ready to paste, with its summary for the prose to start from.
source "$(dirname "$0")/lib.sh"
security="$(dirname "$0")/../../docs/SECURITY.md"

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

# docs_routes HEADER: the routes a table of docs/SECURITY.md names, one "METHODS PATH WHAT" line
# each. The table is the one whose header row starts with HEADER; each backquoted `PATH` or
# `METHOD PATH` of its rows' first cell is a route (no method: GET,HEAD). WHAT is the right the
# last cell gives in parentheses, (`read_metrics`), or for the roles table the role its first
# cell names.
docs_routes() {
  awk -F'|' -v header="$1" '
    index($0, header) == 1 { table = 1; next }
    table && !/^\|/ { table = 0 }
    table && /^\| `/ {
      if (header ~ /^\| role/) {
        what = $2
      } else {
        match($(NF - 1), /\(`[a-z_]+`\)/)
        what = substr($(NF - 1), RSTART, RLENGTH)
      }
      gsub(/[ `()]/, "", what)
      cell = (header ~ /^\| role/) ? $3 : $2
      while (match(cell, /`[^`]*`/)) {
        item = substr(cell, RSTART + 1, RLENGTH - 2)
        cell = substr(cell, RSTART + RLENGTH)
        if (item ~ /^\//) print "GET,HEAD " item " " what
        else if (item ~ /^[A-Z]+(, [A-Z]+)* \//) {
          methods = item; sub(/ \/.*/, "", methods); gsub(/, /, ",", methods)
          path = item; sub(/^[^\/]*/, "", path)
          print methods " " path " " what
        }
      }
    }' "$security" | sort
}

# compare WHAT EXPECTED ACTUAL: passes when both lists match, else shows what differs.
compare() {
  if diff -u <(echo "$2") <(echo "$3") >"$WORK/diff"; then
    pass "$1"
  else
    fail "$1 (- served, + docs/SECURITY.md):"
    tail -n +3 "$WORK/diff" >&2
  fi
}

served_rights=$(awk -F'\t' '{ print $1 " " $2 " " $5 }' "$WORK/routes.tsv" | sort)
compare "docs/SECURITY.md's endpoint table names every route, its methods and its right" \
  "$served_rights" "$(docs_routes '| endpoint | reveals / does |')"
served_roles=$(awk -F'\t' '$4 != "none" { print $1 " " $2 " " $4 }' "$WORK/routes.tsv" | sort)
compare "docs/SECURITY.md's roles table puts every route under the role it needs" \
  "$served_roles" "$(docs_routes '| role | endpoints |')"

# The rows a route without one needs, from what the daemon says of it.
documented=$(docs_routes '| endpoint | reveals / does |' | cut -d' ' -f1,2)
while IFS=$'\t' read -r methods path summary role right; do
  grep -qxF "$methods $path" <<<"$documented" && continue
  shown=$path
  [ "$methods" = GET,HEAD ] || shown="${methods//,/, } $path"
  echo "missing from docs/SECURITY.md's endpoint table; a row to start from:" >&2
  echo "| \`$shown\` | ${summary//|/\\|} | \`$role\` (\`$right\`) |" >&2
done <"$WORK/routes.tsv"
finish
