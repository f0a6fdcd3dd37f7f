#!/usr/bin/env bash
# Checks the built image (scripts/build-image.sh; SENTINEL_IMAGE, default localhost/sentinel:latest): its
# filesystem, and its entrypoint run in it with chroot against a PostgreSQL and a Temporal dev server on loopback
# (test/image/image.test.ts). Mounting an image and chroot need root: run it as root, or with sudo.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "test-image.sh mounts the image and chroots into it: run it as root (sudo)" >&2; exit 1; }
exec bash scripts/with-node.sh node_modules/.bin/jest --config test/image/jest.config.js "$@"
