#!/usr/bin/env bash
# Fails when package-lock.json does not lock exactly what package.json asks for, on every platform (`npm ci`
# refuses a lock without another platform's optional native packages, so a lock written on one machine must be
# complete). Fix it with `npm install --package-lock-only --ignore-scripts` and commit the lock.
set -uo pipefail
cd "$(dirname "$0")/.."
if ! out=$(npm ci --dry-run --ignore-scripts --no-audit --no-fund 2>&1); then
  printf '%s\n' "$out" | grep -v 'Unknown user config' >&2
  echo 'package-lock.json is out of date: run `npm install --package-lock-only --ignore-scripts` and commit it' >&2
  exit 1
fi
echo 'package-lock.json agrees with package.json'
