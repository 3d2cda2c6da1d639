#!/usr/bin/env bash
# Access roles end to end (docs/SECURITY.md, "Roles"): three users of a web config, each given one
# set of roles by web.roles, get exactly the endpoints of their roles; a reload changes the roles;
# a daemon on a non-loopback address without authentication serves metrics only.
source "$(dirname "$0")/lib.sh"

# bcrypt hashes as in web_tls.sh, at the lowest cost so the test stays quick.
hash_of() {
  python3 -W ignore -c "import crypt, sys; print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1 << 4)))" "$1"
}
cat >"$WORK/web.yml" <<YAML
basic_auth_users:
  scraper: '$(hash_of scrape-pw)'
  oncall: '$(hash_of oncall-pw)'
  robot: '$(hash_of robot-pw)'
YAML
grep -q '\$2b\$04\$' "$WORK/web.yml" || { fail "could not make bcrypt hashes: $(cat "$WORK/web.yml")"; finish; }

config="$WORK/flightrec.yaml"
roles_config() {  # roles_config SCRAPER_ROLES [EXTRA_USER_LINE]
  cat <<YAML
incidents:
  dir: $WORK/incidents
web:
  roles:
    scraper: $1
    oncall: [metrics, recordings]
    robot: [actions]
${2:-}
YAML
}
roles_config "[metrics]" >"$config"
start_daemon --config.file="$config" --web.config.file="$WORK/web.yml" --web.enable-lifecycle

# statuses USER:PASSWORD: the status of each endpoint, in one line.
statuses() {
  local auth=() out=""
  [ -n "$1" ] && auth=(-u "$1")
  for request in "GET /" "GET /metrics" "GET /dump?from=-1s" "GET /incidents" "POST /-/trigger?reason=roles" \
    "POST /-/reload" "GET /-/healthy" "GET /-/ready"; do
    out+="${request#* }=$(curl -s -o /dev/null -w '%{http_code}' "${auth[@]}" -X "${request%% *}" "${URL}${request#* /}") "
  done
  echo "${out% }"
}
# The manual incident is accepted (202); the reload re-reads the same file (200); /-/ready may still
# wait for its first frame (503) but it is not refused.
ready() { sed 's#/-/ready=503#/-/ready=200#' <<<"$1"; }
expect_eq "$(ready "$(statuses scraper:scrape-pw)")" \
  "/=200 /metrics=200 /dump?from=-1s=403 /incidents=403 /-/trigger?reason=roles=403 /-/reload=403 /-/healthy=200 /-/ready=200" \
  "scraper (metrics) gets / and /metrics"
expect_eq "$(ready "$(statuses oncall:oncall-pw)")" \
  "/=200 /metrics=200 /dump?from=-1s=200 /incidents=200 /-/trigger?reason=roles=403 /-/reload=403 /-/healthy=200 /-/ready=200" \
  "oncall (metrics, recordings) gets the recordings too, but cannot act"
expect_eq "$(ready "$(statuses robot:robot-pw)")" \
  "/=403 /metrics=403 /dump?from=-1s=403 /incidents=403 /-/trigger?reason=roles=202 /-/reload=200 /-/healthy=200 /-/ready=200" \
  "robot (actions) can only trigger and reload"
expect_eq "$(ready "$(statuses "")")" \
  "/=401 /metrics=401 /dump?from=-1s=401 /incidents=401 /-/trigger?reason=roles=401 /-/reload=401 /-/healthy=200 /-/ready=200" \
  "without credentials: 401 but for the health endpoints"
# The alert webhooks write incidents: the actions role too. robot gets past the roles to the
# payload check (400 for an empty body); the others are refused before it.
webhook() {
  curl -s -o /dev/null -w '%{http_code}' ${1:+-u "$1"} -X POST --data '' "${URL}-/trigger/$2"
}
for route in alertmanager grafana; do
  expect_eq "$(webhook scraper:scrape-pw $route) $(webhook oncall:oncall-pw $route) $(webhook robot:robot-pw $route) $(webhook "" $route)" \
    "403 403 400 401" "POST /-/trigger/$route needs the actions role"
done
expect_eq "$(curl -s -u scraper:scrape-pw "${URL}incidents")" \
  "403 Forbidden: /incidents needs the 'recordings' role; user \"scraper\" has [metrics] in web.roles" \
  "the 403 names the user, the role and web.roles"

# A reload changes the roles at once; one naming a user the web config lacks is refused whole.
roles_config "[metrics, recordings]" >"$config"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' -u robot:robot-pw -X POST "${URL}-/reload")" 200 "robot reloads"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' -u scraper:scrape-pw "${URL}incidents")" 200 \
  "after the reload scraper reads the recordings"
roles_config "[metrics]" "    mallory: [actions]" >"$config"
answer=$(curl -s -w ' %{http_code}' -u robot:robot-pw -X POST "${URL}-/reload")
expect_contains "$answer" "web.roles: user \"mallory\" is not in the web config's basic_auth_users" \
  "a reload naming an unknown user says so"
expect_contains "$answer" " 500" "and fails"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' -u scraper:scrape-pw "${URL}incidents")" 200 \
  "the failed reload kept the roles in force"
stop_daemon

# The same unknown user at start-up stops the daemon, naming it.
start_refused --config.file="$config" --web.config.file="$WORK/web.yml"
expect_eq "$START_STATUS" 1 "web.roles naming an unknown user: exit 1"
expect_contains "$START_OUTPUT" "mallory" "the start-up error names the user"

# No authentication on every interface: metrics for everyone, history and actions refused.
start_daemon --web.listen-address=0.0.0.0:0
expect_eq "$(statuses "" | sed 's#/-/ready=503#/-/ready=200#')" \
  "/=200 /metrics=200 /dump?from=-1s=403 /incidents=403 /-/trigger?reason=roles=403 /-/reload=404 /-/healthy=200 /-/ready=200" \
  "0.0.0.0 without authentication: only the metrics role (and no reload without lifecycle)"
expect_contains "$(curl -s "${URL}dump")" \
  "anonymous clients of a non-loopback listen address get only 'metrics' (set web.anonymous_roles" \
  "the 403 names the setting that enables it"
stop_daemon
finish
