#!/usr/bin/env bash
# Builds the service's image from the Containerfile with podman (or buildah when podman is missing), tagged
# localhost/sentinel:<version from package.json> and localhost/sentinel:latest unless --tag is given.
#
#   scripts/build-image.sh                      # base: the official node:<.node-version>-bookworm-slim
#   scripts/build-image.sh --base IMAGE         # another base with that node and npm (a mirror of it, say)
#   scripts/build-image.sh --base-from-debian   # a base made here from Debian packages and the npm registry
#                                               # (scripts/build-base-image.sh; for machines without a registry)
#   scripts/build-image.sh --tag registry.example.com/sentinel:1.2.3
#
# The image is built in Docker's format, which keeps its HEALTHCHECK (the OCI format has none).
set -euo pipefail
cd "$(dirname "$0")/.."

node_version=$(tr -d ' v\n' < .node-version)
app_version=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' package.json)
base=""
tags=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --base) base=$2; shift 2 ;;
    --base-from-debian) base=$(bash scripts/build-base-image.sh); shift ;;
    --tag) tags+=("$2"); shift 2 ;;
    *) echo "Unknown argument $1. Usage: build-image.sh [--base IMAGE | --base-from-debian] [--tag NAME]..." >&2; exit 2 ;;
  esac
done
[ "${#tags[@]}" -gt 0 ] || tags=("localhost/sentinel:$app_version" "localhost/sentinel:latest")

args=(--format docker --layers --isolation "${BUILD_ISOLATION:-chroot}" --build-arg "NODE_VERSION=$node_version" --file Containerfile)
[ -z "$base" ] || args+=(--build-arg "BASE_IMAGE=$base")
for tag in "${tags[@]}"; do args+=(--tag "$tag"); done
# Behind a proxy that inspects TLS, the host trusts its CA (NODE_EXTRA_CA_CERTS, or the system's bundle, which
# holds the CAs an administrator added): the build's npm gets that file as a secret, mounted for its RUN steps
# only and kept in no layer.
ca_bundle=${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}
if [ -s "$ca_bundle" ]; then
  args+=(--secret "id=extra-ca-certificates,src=$ca_bundle")
fi

if command -v podman > /dev/null; then
  podman build "${args[@]}" .
  # The build stage and earlier builds' images are left untagged: each is a gigabyte. Only Sentinel's go (by their
  # label); npm's download cache is kept apart (a cache mount), so the next build's install stays quick.
  podman image prune --force --filter label=org.opencontainers.image.title=sentinel > /dev/null
elif command -v buildah > /dev/null; then
  buildah build "${args[@]}" .
else
  echo "Building the image needs podman or buildah (Debian: apt-get install podman)" >&2
  exit 1
fi
echo "Built ${tags[*]}"
