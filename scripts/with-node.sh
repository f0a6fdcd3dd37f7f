#!/usr/bin/env bash
# Runs a command (`with-node.sh jest`, `with-node.sh node script.mjs`) on the project's Node: the major of
# .node-version. When the `node` first on PATH is of that major, it is used as it is; otherwise the pinned
# version is provisioned into .tools/node (scripts/install-node.sh, once) and put first on PATH, so the command
# and everything it starts by name or by process.execPath (npm, tsx, jest's workers, test servers, the services
# of `npm start`) run on it. package.json's scripts go through here.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
version=$(tr -d ' v\n' < "$root/.node-version")

current=$(node --version 2> /dev/null || true)
current=${current#v}
if [ "${current%%.*}" != "${version%%.*}" ]; then
  bash "$root/scripts/install-node.sh"
  export PATH="$root/.tools/node/bin:$PATH"
  # Native addons built from source (node-gyp) compile against this Node's headers, not a system Node's.
  export npm_config_nodedir="$root/.tools/node"
fi
# npm records the node that ran it; tools that start node by these variables get this one.
NODE=$(command -v node)
export NODE npm_node_execpath="$NODE"

exec "$@"
