#!/usr/bin/env bash
# Validates the deployment manifests: the Helm chart (deploy/helm/sentinel) with `helm lint` and, rendered with
# `helm template` for each values file in deploy/helm/test-values, every object against the Kubernetes API's
# JSON schemas with kubeconform (strict: an unknown field is an error), for the oldest and the newest Kubernetes
# the check covers; and deploy/compose.yaml's shape. helm, kubeconform and the schemas come from
# scripts/install-tools.sh (.tools/).
set -euo pipefail
cd "$(dirname "$0")/.."

tools=$PWD/.tools
helm=$tools/bin/helm
kubeconform=$tools/bin/kubeconform
schemas=$tools/kubernetes-json-schema
for binary in "$helm" "$kubeconform"; do
  [ -x "$binary" ] || { echo "$binary is missing: run scripts/install-tools.sh" >&2; exit 1; }
done
chart=deploy/helm/sentinel
# Helm keeps its caches and settings out of the home directory.
export HELM_CACHE_HOME="$tools/helm/cache" HELM_CONFIG_HOME="$tools/helm/config" HELM_DATA_HOME="$tools/helm/data"

rendered=$(mktemp -d)
trap 'rm -rf "$rendered"' EXIT
# The schemas refer to their shared definitions as /api/_definitions.json, which kubeconform cannot resolve from a
# directory: a copy here names the file by its absolute URL instead.
for schema_dir in "$schemas"/v*-local-strict; do
  copy="$rendered/schemas/$(basename "$schema_dir")"
  mkdir -p "$copy"
  cp "$schema_dir"/*.json "$copy/"
  sed -i "s|\"/api/_definitions.json#|\"file://$copy/_definitions.json#|g" "$copy"/*.json
done
for values in deploy/helm/test-values/*.yaml; do
  name=$(basename "$values" .yaml)
  for schema_dir in "$rendered"/schemas/v*-local-strict; do
    version=$(basename "$schema_dir" -local-strict)
    echo "$values, Kubernetes $version: helm lint, helm template, kubeconform"
    "$helm" lint --strict --quiet --kube-version "$version" "$chart" --values "$values"
    "$helm" template sentinel "$chart" --namespace sentinel --kube-version "$version" --values "$values" \
      > "$rendered/$name-$version.yaml"
    "$kubeconform" -strict -summary -kubernetes-version "${version#v}" \
      -schema-location "$rendered/schemas/{{ .NormalizedKubernetesVersion }}-local-strict/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
      "$rendered/$name-$version.yaml"
  done
done

# Without DATABASE_URL and JWT_SECRET (neither an existing Secret nor values), the chart refuses to render.
if "$helm" template sentinel "$chart" --kube-version v1.37.0 > /dev/null 2> "$rendered/error.txt"; then
  echo "helm template rendered without secrets; it must ask for them" >&2
  exit 1
fi
grep -q 'secrets.existingSecret or secrets.values.DATABASE_URL is required' "$rendered/error.txt"
echo "deploy/helm/sentinel: lint, template and schemas ok"

# The compose file: valid YAML with the five processes' services, the three of Sentinel on one image, each
# started only after the migration succeeded.
bash scripts/with-node.sh node --input-type=module - <<'SCRIPT'
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
const compose = parse(readFileSync('deploy/compose.yaml', 'utf8'), { merge: true });
const services = compose.services;
for (const name of ['postgres', 'temporal', 'migrate', 'api', 'worker']) assert.ok(services[name], `service ${name}`);
for (const name of ['migrate', 'api', 'worker']) {
  assert.equal(services[name].image, '${SENTINEL_IMAGE:-localhost/sentinel:latest}', `${name} image`);
  assert.deepEqual(services[name].command, [name], `${name} command`);
  assert.equal(services[name].read_only, true, `${name} read_only`);
}
for (const name of ['api', 'worker']) {
  assert.equal(services[name].depends_on.migrate.condition, 'service_completed_successfully', `${name} after migrate`);
}
console.log('deploy/compose.yaml: ok');
SCRIPT
