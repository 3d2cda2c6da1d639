#!/usr/bin/env bash
# deploy/kubernetes against the Kubernetes API schemas, since no cluster or kubectl runs here: what
# `kubectl apply -k deploy/kubernetes` and `-k deploy/kubernetes/overlays/prometheus-operator` would
# send, rendered by tests/k8s/render.py (resources, components and the secretGenerator's Secrets,
# from a deploy/make-web-secrets directory), then every object validated by tests/k8s/validate.js
# (its fields and types, and no field its schema lacks; the Prometheus Operator's CRD schemas for
# the components). The validators come from npm, pinned by tests/k8s/package-lock.json and
# installed under the build directory by `npm ci` (again only when the lock file changes).
# Then what must hold across the objects: the base needs no CRD, the overlay adds the ServiceMonitor
# and the PrometheusRule, the DaemonSet runs as its own ServiceAccount without an API token and
# with the runtime's seccomp profile, and the Secrets the components read exist with those keys.
# Last, broken copies must be refused, naming the field: the check can fail.
source "$(dirname "$0")/lib.sh"
repo=$(cd "$E2E_DIR/../.." && pwd)
k8s=$repo/deploy/kubernetes

# --- the validators, from npm ----------------------------------------------------------------------
for tool in node npm jq; do
  command -v "$tool" >/dev/null || { fail "$tool is not installed (deps/debian-packages.txt, scripts/install-deps)"; finish; }
done
deps=$(cd "$(dirname "$FLIGHTREC")" && pwd)/k8s-schema-deps
if ! cmp -s "$repo/tests/k8s/package-lock.json" "$deps/package-lock.json" ||
  [ ! -d "$deps/node_modules/kubernetes-models" ]; then
  mkdir -p "$deps"
  cp "$repo/tests/k8s/package.json" "$repo/tests/k8s/package-lock.json" "$deps/"
  if ! npm ci --prefix "$deps" --ignore-scripts --no-audit --no-fund --loglevel=error >"$WORK/npm.log" 2>&1; then
    rm -f "$deps/package-lock.json"  # so that the next run tries again
    fail "npm ci --prefix $deps (tests/k8s/package-lock.json) failed: $(tail -5 "$WORK/npm.log")"
    finish
  fi
fi

# validate NAME OBJECTS.json: every object valid, or a failure listing the invalid ones.
validate() {
  local out
  if out=$(node "$repo/tests/k8s/validate.js" "$deps/node_modules" "$2" 2>&1); then
    pass "$1: $(grep -c '^ok ' <<<"$out") objects valid against the API schemas"
  else
    fail "$1: $(grep -v '^ok ' <<<"$out")"
  fi
}

# --- rendered as kubectl -k would, then validated --------------------------------------------------
secrets=$k8s/secrets
if [ ! -d "$secrets" ]; then
  # The kustomization reads deploy/kubernetes/secrets; a scratch copy of the directory with
  # made secrets, so that nothing is written into the checkout.
  cp -r "$k8s" "$WORK/kubernetes"
  k8s=$WORK/kubernetes
  secrets=$k8s/secrets
  "$repo/deploy/make-web-secrets" "$secrets" >/dev/null
fi
render() { python3 "$repo/tests/k8s/render.py" "$1" >"$2" 2>"$WORK/render.err" || fail "render $1: $(cat "$WORK/render.err")"; }
render "$k8s" "$WORK/base.json"
render "$k8s/overlays/prometheus-operator" "$WORK/overlay.json"
validate "kubectl apply -k deploy/kubernetes" "$WORK/base.json"
validate "kubectl apply -k deploy/kubernetes/overlays/prometheus-operator" "$WORK/overlay.json"

# kinds FILE: "apiVersion Kind/name" of every object, sorted.
kinds() { jq -r '.[].object | "\(.apiVersion) \(.kind)/\(.metadata.name)"' "$1" | sort; }
expect_eq "$(kinds "$WORK/base.json" | grep -c monitoring.coreos.com || true)" 0 \
  "the base has no object of the Prometheus Operator's CRDs"
expect_eq "$(comm -13 <(kinds "$WORK/base.json") <(kinds "$WORK/overlay.json") | xargs)" \
  "monitoring.coreos.com/v1 PrometheusRule/flightrec-capture monitoring.coreos.com/v1 ServiceMonitor/flightrec" \
  "the overlay adds the ServiceMonitor and the PrometheusRule to the base"
expect_eq "$(comm -23 <(kinds "$WORK/base.json") <(kinds "$WORK/overlay.json") | xargs)" "" \
  "and keeps every object of the base"

# object FILE KIND NAME: that object's JSON.
object() { jq -c --arg k "$2" --arg n "$3" '.[].object | select(.kind == $k and .metadata.name == $n)' "$1"; }
ds=$(object "$WORK/base.json" DaemonSet flightrec)
sa_name=$(jq -r '.spec.template.spec.serviceAccountName' <<<"$ds")
expect_eq "$(object "$WORK/base.json" ServiceAccount "$sa_name" | jq -r '.automountServiceAccountToken')" false \
  "the DaemonSet runs as the ServiceAccount $sa_name, which mounts no API token"
expect_eq "$(jq -r '.spec.template.spec.automountServiceAccountToken' <<<"$ds")" false \
  "and its pods ask for no token either"
expect_eq "$(jq -r '[.spec.template.spec.securityContext.seccompProfile.type, .spec.template.spec.containers[0].securityContext.seccompProfile.type] | join(",")' <<<"$ds")" \
  "RuntimeDefault,RuntimeDefault" "pod and container use the runtime's default seccomp profile"
expect_eq "$(jq -r '.spec.template.spec.containers[0].resources | [.requests.memory, .limits.memory, .limits.cpu // "none"] | join(",")' <<<"$ds")" \
  "96Mi,512Mi,none" "memory request and limit as sized from docs/PERFORMANCE.md, no CPU limit"
# Each Secret key a component reads exists in the rendered Secret.
sm=$(object "$WORK/overlay.json" ServiceMonitor flightrec)
for ref in $(jq -r '.spec.endpoints[0] | [.tlsConfig.ca.secret, .basicAuth.username, .basicAuth.password][] | "\(.name):\(.key)"' <<<"$sm"); do
  expect_eq "$(object "$WORK/overlay.json" Secret "${ref%%:*}" | jq -r --arg k "${ref#*:}" '.data[$k] != null')" true \
    "the ServiceMonitor's secret key $ref exists"
done
expect_eq "$(object "$WORK/overlay.json" Secret flightrec-scrape | jq -r '.data.username | @base64d')" prometheus \
  "the ServiceMonitor scrapes as the user prometheus"
expect_eq "$(object "$WORK/overlay.json" Secret flightrec-alertmanager | jq -r '.data.username | @base64d')" alertmanager \
  "the Alertmanager Secret holds the user alertmanager"
expect_eq "$(object "$WORK/overlay.json" Secret flightrec-alertmanager | jq -r '.data.password | @base64d')" \
  "$(cat "$secrets/alertmanager.password")" "and its password"

# --- the check can fail: broken copies are refused, naming the field -------------------------------
jq '[.[] | select(.object.kind == "ServiceAccount") | .source = "broken" | .object.automountServiceAccountToken = "no"]' \
  "$WORK/base.json" >"$WORK/bad-type.json"
jq '[.[] | select(.object.kind == "DaemonSet") | .source = "broken"
  | .object.spec.template.spec.containers[0].securityContext.seccompProfle = .object.spec.template.spec.containers[0].securityContext.seccompProfile]' \
  "$WORK/base.json" >"$WORK/bad-key.json"
jq '[.[] | select(.object.kind == "ServiceMonitor") | .source = "broken" | .object.spec.endpoints[0].tlsConfig.serverNme = "flightrec"]' \
  "$WORK/overlay.json" >"$WORK/bad-crd-key.json"
jq '[.[] | select(.object.kind == "DaemonSet") | .source = "broken" | .object.spec.template.spec.containers[0].resources.limits.memory = []]' \
  "$WORK/base.json" >"$WORK/bad-quantity.json"
for case in "bad-type:data/automountServiceAccountToken must be boolean" \
  "bad-key:/spec/template/spec/containers/0/securityContext/seccompProfle: unknown field" \
  "bad-crd-key:/spec/endpoints/0/tlsConfig/serverNme: unknown field" \
  "bad-quantity:data/spec/template/spec/containers/0/resources/limits/memory must be"; do
  name=${case%%:*}
  if out=$(node "$repo/tests/k8s/validate.js" "$deps/node_modules" "$WORK/$name.json" 2>&1); then
    fail "$name: accepted: $out"
  else
    expect_contains "$out" "${case#*:}" "$name is refused: ${case#*:}"
  fi
done

finish
