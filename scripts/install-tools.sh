#!/usr/bin/env bash
# Provisions the project's tool binaries into .tools/, pinned: the Python-packaged ones from PyPI
# (scripts/tools-requirements.txt); stripe-mock, helm and kubeconform, Go modules built with `go install`; and the
# Kubernetes JSON schemas kubeconform validates the chart against (scripts/check-deploy.sh).
# Idempotent: each part does nothing when its stamp file shows the pinned set is already installed.
# Node itself (.node-version) is provisioned by scripts/install-node.sh, which scripts/with-node.sh runs when the
# node on PATH is not of the pinned major.
set -euo pipefail
cd "$(dirname "$0")/.."

tools=.tools
mkdir -p "$tools"

requirements=scripts/tools-requirements.txt
stamp="$tools/installed-$(sha256sum "$requirements" | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  echo "Installing tool binaries into $tools/ ..."
  rm -rf "$tools/venv" "$tools"/installed-*
  python3 -m venv "$tools/venv"
  "$tools/venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"

  # Each binary must run and report its version before we call the install good.
  "$tools/venv/bin/temporal" --version
  test -x "$tools/venv/bin/temporal-test-server"
  "$tools/venv/bin/aws" --version
  "$tools/venv/bin/moto_server" --help > /dev/null
  "$tools/venv/bin/st" --version
  "$tools/venv/bin/cfn-lint" --version
  "$tools/venv/bin/python" -c "import prometheus_client.parser"
  touch "$stamp"
fi

# stripe-mock answers like the Stripe API (validated against Stripe's OpenAPI document) for the billing tests.
stripe_mock_version=v0.203.0
stripe_mock_stamp="$tools/stripe-mock-$stripe_mock_version"
if [ ! -f "$stripe_mock_stamp" ]; then
  command -v go > /dev/null || { echo "stripe-mock needs the Go toolchain (go) to build; install Go first" >&2; exit 1; }
  echo "Installing stripe-mock $stripe_mock_version into $tools/bin/ ..."
  rm -f "$tools"/stripe-mock-v*
  GOBIN="$PWD/$tools/bin" go install "github.com/stripe/stripe-mock@$stripe_mock_version"
  "$tools/bin/stripe-mock" -version
  touch "$stripe_mock_stamp"
fi

# helm and kubeconform validate the Helm chart (scripts/check-deploy.sh): `helm lint`, `helm template`, and the
# rendered objects against the Kubernetes API's schemas.
helm_version=v3.22.0
kubeconform_version=v0.8.0
deploy_tools_stamp="$tools/deploy-tools-helm-$helm_version-kubeconform-$kubeconform_version"
if [ ! -f "$deploy_tools_stamp" ]; then
  command -v go > /dev/null || { echo "helm and kubeconform need the Go toolchain (go) to build; install Go first" >&2; exit 1; }
  echo "Installing helm $helm_version and kubeconform $kubeconform_version into $tools/bin/ ..."
  rm -f "$tools"/deploy-tools-*
  # Both report their version from a variable their release builds set and `go install` leaves at a placeholder.
  GOBIN="$PWD/$tools/bin" go install -ldflags "-X helm.sh/helm/v3/internal/version.version=$helm_version" \
    "helm.sh/helm/v3/cmd/helm@$helm_version"
  GOBIN="$PWD/$tools/bin" go install -ldflags "-X main.version=$kubeconform_version" \
    "github.com/yannh/kubeconform/cmd/kubeconform@$kubeconform_version"
  helm_reported=$("$tools/bin/helm" version --short)
  kubeconform_reported=$("$tools/bin/kubeconform" -v)
  echo "helm $helm_reported, kubeconform $kubeconform_reported"
  [ "${helm_reported%%+*}" = "$helm_version" ] || { echo "helm reports $helm_reported, not $helm_version" >&2; exit 1; }
  [ "$kubeconform_reported" = "$kubeconform_version" ] || {
    echo "kubeconform reports $kubeconform_reported, not $kubeconform_version" >&2
    exit 1
  }
  touch "$deploy_tools_stamp"
fi

# The Kubernetes API's JSON schemas, as the PyPI package kubernetes-validate ships them (kubeconform's own
# download is not reachable from CI): the oldest and the newest Kubernetes the chart is checked against.
schemas_package=kubernetes-validate==1.37.0
schema_versions=(v1.30.0 v1.37.0)
schemas_stamp="$tools/kubernetes-json-schema-$(echo "$schemas_package ${schema_versions[*]}" | sha256sum | cut -c1-16)"
if [ ! -f "$schemas_stamp" ]; then
  echo "Installing the Kubernetes JSON schemas ($schemas_package: ${schema_versions[*]}) into $tools/kubernetes-json-schema/ ..."
  rm -rf "$tools/kubernetes-json-schema" "$tools"/kubernetes-json-schema-*
  download=$(mktemp -d)
  "$tools/venv/bin/pip" download --quiet --disable-pip-version-check --no-deps --dest "$download" "$schemas_package"
  "$tools/venv/bin/python" -m zipfile -e "$download"/kubernetes_validate-*.whl "$download/unpacked"
  mkdir -p "$tools/kubernetes-json-schema"
  for version in "${schema_versions[@]}"; do
    source_dir="$download/unpacked/kubernetes_validate/kubernetes-json-schema/$version-local-strict"
    [ -f "$source_dir/deployment-apps-v1.json" ] || { echo "$schemas_package has no schemas for $version" >&2; exit 1; }
    mv "$source_dir" "$tools/kubernetes-json-schema/$version-local-strict"
  done
  rm -rf "$download"
  touch "$schemas_stamp"
fi
