#!/usr/bin/env bash
# The deployment files as their tools see them: the systemd unit through `systemd-analyze verify`
# and its offline security rating, the Prometheus scrape configs through `promtool check config`,
# flightrec's configs through `flightrec check-config`, the Kubernetes, compose and Grafana
# provisioning YAML through yq (Debian's `yq`), plus what must agree across them: the same
# capabilities in the unit, the DaemonSet and compose, the ConfigMap equal to deploy/flightrec.yaml,
# and every file compose mounts present in the repository. deploy/make-web-secrets' users get only
# their roles from a daemon running deploy/flightrec.yaml's web.roles, Prometheus scrapes as
# prometheus and the RUNBOOK's Alertmanager posts as alertmanager over HTTPS. No image is built
# (no Docker engine); tests/e2e/k8s_manifests.sh checks the manifests against the API schemas.
source "$(dirname "$0")/lib.sh"
repo=$(cd "$(dirname "$0")/../.." && pwd)
deploy=$repo/deploy
k8s=$deploy/kubernetes

have() { command -v "$1" >/dev/null; }
# expect_silent_success WHAT COMMAND...: the command exits 0 and prints nothing.
expect_silent_success() {
  local what=$1 out
  shift
  if out=$("$@" 2>&1) && [ -z "$out" ]; then pass "$what"; else fail "$what: $out"; fi
}
# expect_config_ok WHAT FILE: check-config accepts FILE, saying only "FILE: OK" and what each rule
# compares ("  rule NAME: ...").
expect_config_ok() {
  local out
  if out=$("$FLIGHTREC" check-config "$2" 2>&1) &&
    [ "$(printf '%s\n' "$out" | grep -v '^  rule ')" = "$2: OK" ]; then pass "$1"; else fail "$1: $out"; fi
}
# A YAML file as sorted JSON, to compare two documents regardless of layout and comments.
canonical() { yq -S -c . "$1"; }

# --- systemd -------------------------------------------------------------------------------------
if have systemd-analyze; then
  # verify checks that ExecStart's binary exists: point it at the one under test.
  sed "s#/usr/local/bin/flightrec#$(realpath "$FLIGHTREC")#" "$deploy/flightrec.service" >"$WORK/flightrec.service"
  expect_silent_success "systemd-analyze verify deploy/flightrec.service: no warnings" \
    systemd-analyze verify "$WORK/flightrec.service"
  # Exposure is 0 (locked down) to 10 (unprotected); the unit scores 2.9 ("OK") with the six
  # capabilities it needs and real-time scheduling allowed for the sampler. Threshold 30 = 3.0:
  # loosening the sandbox further fails here.
  if rating=$(systemd-analyze security --offline=yes --threshold=30 "$WORK/flightrec.service" 2>&1); then
    pass "systemd-analyze security: $(grep -o 'exposure level.*' <<<"$rating")"
  else
    fail "systemd-analyze security above 3.0: $(tail -1 <<<"$rating")"
  fi
else
  echo "skip: systemd-analyze is not installed"
fi
unit_caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$deploy/flightrec.service" | tr ' ' '\n' | sed 's/^CAP_//' | sort | xargs)
expect_eq "$(sed -n 's/^AmbientCapabilities=//p' "$deploy/flightrec.service" | tr ' ' '\n' | sed 's/^CAP_//' | sort | xargs)" \
  "$unit_caps" "the unit's ambient capabilities are its bounding set"
expect_contains "$(grep '^ExecReload=' "$deploy/flightrec.service")" 'kill -HUP $MAINPID' \
  "systemctl reload sends SIGHUP"
expect_contains "$(grep '^ExecStart=' "$deploy/flightrec.service")" "--config.file=/etc/flightrec/flightrec.yaml" \
  "the unit reads /etc/flightrec/flightrec.yaml"

# --- flightrec's own configs ---------------------------------------------------------------------
expect_config_ok "flightrec check-config deploy/flightrec.yaml" "$deploy/flightrec.yaml"
state_dir=/var/lib/$(sed -n 's/^StateDirectory=//p' "$deploy/flightrec.service")
expect_contains "$(grep -A3 '^incidents:' "$deploy/flightrec.yaml")" "dir: $state_dir/incidents" \
  "incidents.dir is inside the unit's StateDirectory"

# --- Prometheus scrape configs -------------------------------------------------------------------
expect_silent_success "promtool check config docker/prometheus.yml" \
  sh -c "promtool check config '$repo/docker/prometheus.yml' >/dev/null"
# Debian's prometheus package is built without Kubernetes service discovery, so its promtool
# rejects kubernetes_sd_configs. Check that part's shape here and the rest (global, relabelling)
# with promtool on a copy whose kubernetes_sd_configs is swapped for an empty static_configs.
if out=$(promtool check config "$k8s/prometheus-scrape.yml" 2>&1); then
  pass "promtool check config deploy/kubernetes/prometheus-scrape.yml"
elif grep -q 'field kubernetes_sd_configs not found' <<<"$out"; then
  echo "note: this promtool has no Kubernetes service discovery; checking the rest without it"
  yq -y '.scrape_configs |= map(del(.kubernetes_sd_configs) | .static_configs = [])' \
    "$k8s/prometheus-scrape.yml" >"$WORK/prometheus-scrape-static.yml"
  expect_silent_success "promtool check config deploy/kubernetes/prometheus-scrape.yml (sd swapped)" \
    sh -c "promtool check config '$WORK/prometheus-scrape-static.yml' >/dev/null"
  expect_eq "$(yq -r '.scrape_configs[0].kubernetes_sd_configs[0].role' "$k8s/prometheus-scrape.yml")" \
    endpoints "the Kubernetes scrape job discovers endpoints"
else
  fail "promtool check config deploy/kubernetes/prometheus-scrape.yml: $out"
fi

# --- TLS and basic auth as deployed: deploy/make-web-secrets, a daemon with its web config and
# deploy/flightrec.yaml's web.roles, each user's roles, then Debian's Prometheus with
# docker/prometheus.yml and Alertmanager with the RUNBOOK's webhook (their paths pointed at the
# made files) reaching that daemon -------------------------------------------------------------------
secrets=$WORK/secrets
"$deploy/make-web-secrets" "$secrets" >/dev/null
sums=$(cd "$secrets" && sha256sum ./*)
"$deploy/make-web-secrets" "$secrets" >/dev/null
expect_eq "$(cd "$secrets" && sha256sum ./*)" "$sums" "make-web-secrets run again keeps every file"
expect_eq "$(stat -c %a "$secrets" "$secrets/tls.key" "$secrets/ca.key" "$secrets/web-config.yml" | xargs)" \
  "700 600 600 600" "make-web-secrets keeps its directory, keys and hashes private"
expect_contains "$(openssl x509 -in "$secrets/tls.crt" -noout -ext subjectAltName)" "DNS:flightrec" \
  "the certificate names flightrec"
expect_eq "$(yq -r '.basic_auth_users | keys | join(" ")' "$secrets/web-config.yml")" \
  "$(yq -r '.web.roles | keys | join(" ")' "$deploy/flightrec.yaml")" \
  "the made web config has exactly the users deploy/flightrec.yaml gives roles"
# A directory made by the make-web-secrets of one user with every role: its web-config.yml is
# remade with the three users (flightrec would refuse web.roles naming users it lacks).
old=$WORK/old-secrets
mkdir -m 700 "$old"
cp "$secrets/ca.crt" "$secrets/ca.key" "$secrets/tls.crt" "$secrets/tls.key" "$old/"
printf 'basic_auth_users:\n  prometheus: x\n' >"$old/web-config.yml"
printf prometheus >"$old/username"
printf secret >"$old/password"
out=$("$deploy/make-web-secrets" "$old" 2>&1)
expect_contains "$out" "made $old/web-config.yml (users prometheus alertmanager operator)" \
  "an older directory's web-config.yml is remade with the three users"
expect_contains "$out" "username and $old/password are from an older make-web-secrets" \
  "and the unused username and password files are named"
for bad in "DNS:two words" "URI:https://x" "dns:flightrec"; do
  out=$("$deploy/make-web-secrets" "$WORK/bad-san" "$bad" 2>&1) && status=0 || status=$?
  expect_eq "$status: $out" "2: make-web-secrets: SAN \"$bad\" is neither DNS:name nor IP:address (e.g. DNS:flightrec, IP:10.0.0.7)" \
    "make-web-secrets refuses the SAN '$bad', naming it"
done
expect_eq "$([ -e "$WORK/bad-san" ] && echo made || echo none)" none "and makes nothing then"

yq -y --arg dir "$WORK/incidents" '{web: {roles: .web.roles}, incidents: {dir: $dir}}' \
  "$deploy/flightrec.yaml" >"$WORK/roles.yaml"
start_daemon --config.file="$WORK/roles.yaml" --web.config.file="$secrets/web-config.yml"
# as USER CURL-ARGS...: the HTTP status of a request over HTTPS as USER (or "-" for none).
as() {
  local user=$1
  shift
  [ "$user" = - ] || set -- -u "$user:$(cat "$secrets/$user.password")" "$@"
  curl -s --max-time 5 --cacert "$secrets/ca.crt" -o /dev/null -w '%{http_code}' "$@"
}
# Per user, whether each of GET /metrics, GET /incidents, POST /-/trigger and POST
# /-/trigger/alertmanager is allowed: the role check comes first, so any answer but 401 and 403
# (200, a manual capture's 202 or 429, the empty alert list's 400) is past it.
roles_of() {
  local status verdicts=()
  for status in $(as "$1" "${URL}metrics") $(as "$1" "${URL}incidents") \
    $(as "$1" -X POST "${URL}-/trigger?reason=e2e") $(as "$1" -X POST --data '{"version":"4"}' "${URL}-/trigger/alertmanager"); do
    case $status in 401 | 403) verdicts+=("$status") ;; *) verdicts+=(yes) ;; esac
  done
  echo "${verdicts[*]}"
}
expect_eq "$(roles_of prometheus)" "yes 403 403 403" "prometheus: /metrics only (role metrics)"
expect_eq "$(roles_of alertmanager)" "403 403 yes yes" "alertmanager: the triggers only (role actions)"
expect_eq "$(roles_of operator)" "yes yes yes yes" "operator: metrics, recordings and actions"
expect_eq "$(as - "${URL}metrics")" 401 "no password: 401"
target=${URL#https://}
yq -y --arg dir "$secrets" --arg target "${target%/}" '.global.scrape_interval = "1s" | .global.scrape_timeout = "900ms"
  | .scrape_configs[0].tls_config.ca_file = ($dir + "/ca.crt")
  | .scrape_configs[0].basic_auth.password_file = ($dir + "/prometheus.password")
  | .scrape_configs[0].static_configs[0].targets = [$target]' "$repo/docker/prometheus.yml" >"$WORK/prometheus-https.yml"
start_prometheus_with "$WORK/prometheus-https.yml" \
  "Prometheus with docker/prometheus.yml's https scrape (made CA, server_name, user prometheus): up == 1"
stop_prometheus

# The RUNBOOK's Alertmanager config, its flightrec webhook pointed at this daemon and its
# http_config's files at the made ones: an alert posted to Alertmanager reaches flightrec over
# HTTPS as alertmanager.
runbook_block() {
  awk -v marker="<!-- e2e:$1 -->" '
    $0 == marker { found = 1; next }
    found && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' "$repo/docs/RUNBOOK.md"
}
runbook_block alertmanager >"$WORK/runbook-alertmanager.yml"
expect_eq "$(yq -r '.receivers[] | select(.name == "flightrec") | .webhook_configs[]
  | [(.url | split(":")[0]), .http_config.tls_config.ca_file, .http_config.tls_config.server_name,
     .http_config.basic_auth.username] | join(",")' "$WORK/runbook-alertmanager.yml" | sort -u)" \
  "https,/etc/alertmanager/flightrec/ca.crt,flightrec,alertmanager" \
  "the RUNBOOK's webhooks to flightrec use https, its CA, the name flightrec and the user alertmanager"
am_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
yq -y --arg dir "$secrets" --arg url "${URL}-/trigger/alertmanager" '
  .route = {receiver: "flightrec", group_wait: "0s", group_interval: "1s", repeat_interval: "1h"}
  | .receivers |= map(select(.name == "flightrec") | .webhook_configs = [.webhook_configs[0] | .url = $url
    | .http_config.tls_config.ca_file = ($dir + "/ca.crt")
    | .http_config.basic_auth.password_file = ($dir + "/alertmanager.password")])' \
  "$WORK/runbook-alertmanager.yml" >"$WORK/alertmanager.yml"
prometheus-alertmanager --config.file="$WORK/alertmanager.yml" --storage.path="$WORK/am" \
  --web.listen-address="127.0.0.1:$am_port" --cluster.listen-address= --log.level=warn \
  2>"$WORK/alertmanager.log" &
AM_PID=$!
trap 'kill "$AM_PID" 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 100); do
  curl -s -o /dev/null "http://127.0.0.1:$am_port/-/ready" && break
  sleep 0.1
done
curl -s -o /dev/null -X POST -H 'Content-Type: application/json' \
  --data '[{"labels":{"alertname":"DeployFilesTest","capture":"flightrec"}}]' \
  "http://127.0.0.1:$am_port/api/v2/alerts"
accepted=""
for _ in $(seq 100); do
  accepted=$(curl -s --max-time 5 --cacert "$secrets/ca.crt" -u "operator:$(cat "$secrets/operator.password")" \
    "${URL}metrics" | awk '$1 == "flightrec_alert_notifications_total{source=\"alertmanager\",result=\"accepted\"}" { print $2 }')
  [ "${accepted:-0}" != 0 ] && break
  sleep 0.1
done
if [ "${accepted:-0}" != 0 ]; then
  pass "Alertmanager with the RUNBOOK's http_config delivered to flightrec over HTTPS as alertmanager"
else
  fail "no notification from Alertmanager accepted; its log: $(tail -5 "$WORK/alertmanager.log")"
fi
kill "$AM_PID" 2>/dev/null || true
wait "$AM_PID" 2>/dev/null || true
stop_daemon

# --- YAML of Kubernetes, compose and Grafana provisioning ----------------------------------------
if have yq; then
  for file in $(find "$k8s" -name "*.yaml" -not -path "*/secrets/*" | sort) "$repo/docker/compose.yml" \
    "$repo"/dashboards/provisioning/*/*.yaml; do
    if yq -e . "$file" >/dev/null 2>"$WORK/yq.err"; then
      pass "YAML parses: ${file#"$repo"/}"
    else
      fail "YAML does not parse: ${file#"$repo"/}: $(cat "$WORK/yq.err")"
    fi
  done

  ds=$k8s/daemonset.yaml
  pod='.spec.template.spec'
  expect_eq "$(yq -r "$pod.hostPID" "$ds")" true "the DaemonSet sees the host's processes (hostPID)"
  expect_eq "$(yq -r "[$pod.containers[0].volumeMounts[] | select(.mountPath == \"/host/proc\" or .mountPath == \"/host/sys\") | .readOnly] | map(tostring) | join(\",\")" "$ds")" \
    "true,true" "the DaemonSet mounts /proc and /sys read-only"
  expect_eq "$(yq -r "$pod.containers[0].securityContext.capabilities.drop | join(\",\")" "$ds")" ALL \
    "the DaemonSet drops every capability"
  expect_eq "$(yq -r "$pod.containers[0].securityContext.capabilities.add | sort | join(\" \")" "$ds")" \
    "$unit_caps" "the DaemonSet adds exactly the unit's capabilities"
  expect_eq "$(yq -r '.services.flightrec.cap_add | sort | join(" ")' "$repo/docker/compose.yml")" \
    "$unit_caps" "compose adds exactly the unit's capabilities"
  expect_eq "$(yq -r '.services.flightrec.pid' "$repo/docker/compose.yml")" host "compose runs flightrec with pid: host"
  args=$(yq -r "$pod.containers[0].args | join(\" \")" "$ds")
  for flag in --path.procfs=/host/proc --path.sysfs=/host/sys --path.cgroupfs=/host/sys/fs/cgroup \
    --config.file=/etc/flightrec/flightrec.yaml; do
    expect_contains "$args" "$flag" "the DaemonSet passes $flag"
  done
  compose_command=$(yq -r '.services.flightrec.command | join(" ")' "$repo/docker/compose.yml")
  expect_contains "$compose_command" --path.cgroupfs=/host/sys/fs/cgroup "compose passes --path.cgroupfs=/host/sys/fs/cgroup"

  # The container tier's names (docs/CONTAINERS.md, "Names"): the node's directories mounted
  # read-only at their own paths, so that containers.names.root stays / and the ConfigMap is
  # deploy/flightrec.yaml.
  # hostpath_mounts: "<hostPath> <mountPath> <readOnly>" for every hostPath volume's mount.
  hostpath_mounts=$(yq -r "$pod as \$p | \$p.containers[0].volumeMounts[] | . as \$m
    | (\$p.volumes[] | select(.name == \$m.name and .hostPath != null)) as \$v
    | \"\\(\$v.hostPath.path) \\(\$m.mountPath) \\(\$m.readOnly // false)\"" "$ds")
  for dir in /var/log/pods /var/log/containers /run/containerd/io.containerd.runtime.v2.task/k8s.io \
    /var/lib/docker/containers; do
    expect_eq "$(awk -v d="$dir" '$1 == d { print $2, $3 }' <<<"$hostpath_mounts")" "$dir true" \
      "the DaemonSet mounts the node's $dir read-only at $dir"
  done
  expect_eq "$(awk '$3 != "true" { print $2 }' <<<"$hostpath_mounts")" /var/lib/flightrec/incidents \
    "the DaemonSet's only writable host directory is the incident store"
  compose_binds=$(yq -r '.services.flightrec.volumes[] | select(startswith("/"))' "$repo/docker/compose.yml")
  expect_contains "$compose_binds" /var/lib/docker/containers:/var/lib/docker/containers:ro \
    "compose mounts Docker's container files read-only at their own path"
  expect_eq "$(grep -v ':ro$' <<<"$compose_binds" || true)" "" "compose mounts every host path read-only"
  # No runtime's socket is reachable: no host directory mounted holds one (a read-only mount still
  # lets a root process connect to a socket in it).
  sockets="/run/containerd/containerd.sock /run/containerd/s /run/k3s/containerd/containerd.sock
    /run/docker.sock /run/docker/containerd/containerd.sock /run/crio/crio.sock
    /run/podman/podman.sock /run/dockershim.sock /run/cri-dockerd.sock"
  exposed=""
  for source in $(awk '{ print $1 }' <<<"$hostpath_mounts") $(cut -d: -f1 <<<"$compose_binds"); do
    real=${source/#\/var\/run/\/run}  # /var/run is a link to /run
    for socket in $sockets; do
      if [ "$socket" = "$real" ] || [[ $socket == "${real%/}/"* ]]; then exposed+=" $source ($socket)"; fi
    done
  done
  expect_eq "$exposed" "" "no host directory the DaemonSet or compose mounts holds a container runtime's socket"
  expect_eq "$(yq -r "$pod.volumes[] | select(.name == \"incidents\") | .hostPath.path" "$ds")" \
    "$state_dir/incidents" "the DaemonSet keeps incidents on the node at $state_dir/incidents"

  # The ConfigMap carries deploy/flightrec.yaml: the same document, and valid for flightrec.
  yq -r '.data["flightrec.yaml"]' "$k8s/configmap.yaml" >"$WORK/configmap-flightrec.yaml"
  expect_eq "$(canonical "$WORK/configmap-flightrec.yaml")" "$(canonical "$deploy/flightrec.yaml")" \
    "the ConfigMap holds the same settings as deploy/flightrec.yaml"
  expect_config_ok "flightrec check-config on the ConfigMap's flightrec.yaml" \
    "$WORK/configmap-flightrec.yaml"

  # The Service, ServiceMonitor and scrape job find the DaemonSet's pods and port.
  sm=$k8s/components/servicemonitor/servicemonitor.yaml
  pod_label=$(yq -r '.spec.template.metadata.labels["app.kubernetes.io/name"]' "$ds")
  expect_eq "$(yq -r '.spec.selector["app.kubernetes.io/name"]' "$k8s/service.yaml")" "$pod_label" \
    "the Service selects the DaemonSet's pods"
  expect_eq "$(yq -r '.spec.selector.matchLabels["app.kubernetes.io/name"]' "$sm")" \
    "$(yq -r '.metadata.labels["app.kubernetes.io/name"]' "$k8s/service.yaml")" "the ServiceMonitor selects the Service"
  port_name=$(yq -r "$pod.containers[0].ports[0].name" "$ds")
  expect_eq "$(yq -r '.spec.ports[0].targetPort' "$k8s/service.yaml")" "$port_name" "the Service targets the metrics port"
  expect_eq "$(yq -r '.spec.endpoints[0].port' "$sm")" "$port_name" "the ServiceMonitor scrapes that port"
  expect_contains "$(yq -r '.scrape_configs[0].relabel_configs[0].regex' "$k8s/prometheus-scrape.yml")" \
    "$(yq -r '.metadata.name' "$k8s/service.yaml");$port_name" "the scrape job keeps that Service's port"
  for manifest in $(yq -r '.resources[]' "$k8s/kustomization.yaml"); do
    if [ -f "$k8s/$manifest" ]; then pass "kustomization lists $manifest, which exists"; else fail "kustomization lists missing $manifest"; fi
  done
  # The PrometheusRule component carries the RUNBOOK's rule, the same groups.
  runbook_block rules >"$WORK/runbook-rules.yml"
  expect_eq "$(yq -S -c '.spec.groups' "$k8s/components/prometheusrule/prometheusrule.yaml")" \
    "$(yq -S -c '.groups' "$WORK/runbook-rules.yml")" "the PrometheusRule holds the RUNBOOK's rule groups"

  # Every file compose bind-mounts from the repository exists (relative to docker/), and what it
  # mounts from docker/secrets/ is what deploy/make-web-secrets makes (the section below).
  for source in $(yq -r '.services[].volumes[]? | split(":")[0] | select(startswith("."))' "$repo/docker/compose.yml"); do
    if [[ $source == ./secrets/* ]]; then
      if [ -e "$secrets/${source#./secrets/}" ]; then pass "compose mounts $source, which make-web-secrets makes"; else fail "compose mounts $source, which make-web-secrets does not make"; fi
    elif [ -e "$repo/docker/$source" ]; then pass "compose mounts $source, which exists"; else fail "compose mounts missing $source"; fi
  done
  # So does the kustomization's secretGenerator.
  for file in $(yq -r '.secretGenerator[].files[] | sub("^[^=]*="; "")' "$k8s/kustomization.yaml"); do
    if [ -e "$secrets/${file#secrets/}" ]; then pass "kustomization's Secret takes $file, which make-web-secrets makes"; else fail "kustomization's Secret takes $file, which make-web-secrets does not make"; fi
  done
  expect_eq "$(yq -r "$pod.volumes[] | select(.name == \"web\") | .secret.secretName" "$ds")" \
    "$(yq -r '.secretGenerator[] | select(.files | index("secrets/web-config.yml")) | .name' "$k8s/kustomization.yaml")" \
    "the DaemonSet mounts the Secret holding web-config.yml"
  expect_contains "$args" "--web.config.file=$(yq -r "$pod.containers[0].volumeMounts[] | select(.name == \"web\") | .mountPath" "$ds")/web-config.yml" \
    "the DaemonSet passes --web.config.file from that mount"
  expect_eq "$(yq -r "[$pod.containers[0].readinessProbe.httpGet.scheme, $pod.containers[0].livenessProbe.httpGet.scheme] | join(\",\")" "$ds")" \
    "HTTPS,HTTPS" "the DaemonSet's probes speak HTTPS"
  for file in "$k8s/prometheus-scrape.yml" "$repo/docker/prometheus.yml"; do
    expect_eq "$(yq -r '.scrape_configs[0] | [.scheme, .tls_config.server_name, .basic_auth.username] | join(",")' "$file")" \
      "https,flightrec,prometheus" "${file#"$repo"/} scrapes over https as prometheus, verifying the name flightrec"
  done
  expect_eq "$(yq -r '.spec.endpoints[0] | [.scheme, .tlsConfig.serverName] | join(",")' "$sm")" \
    "https,flightrec" "the ServiceMonitor scrapes over https, verifying the name flightrec"
  provider_path=$(yq -r '.providers[0].options.path' "$repo/dashboards/provisioning/dashboards/flightrec.yaml")
  expect_eq "$(yq -r "[.services.grafana.volumes[] | select(contains(\"$provider_path/\"))] | length" "$repo/docker/compose.yml")" \
    "$(find "$repo/dashboards" -maxdepth 1 -name "*.json" | wc -l)" "compose mounts every dashboard where the provider loads them"
else
  fail "yq is not installed (Debian package yq): the YAML checks cannot run"
fi

finish
