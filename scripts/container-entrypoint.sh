#!/bin/sh
# The image's entrypoint: its command names the process, `api` (the default), `worker` or `migrate [up|down]`.
# Each is exec'd, so node runs as PID 1 and receives the runtime's SIGTERM itself: the API and the worker drain
# on it (api/main.ts, worker/main.ts). tsx compiles the TypeScript sources as they load (esbuild, no type check).
set -eu
process=${1:-api}
[ "$#" -eq 0 ] || shift
case "$process" in
  api) exec node --import tsx api/main.ts "$@" ;;
  worker) exec node --import tsx worker/main.ts "$@" ;;
  migrate) exec node --import tsx scripts/migrate.ts "$@" ;;
  *)
    echo "Unknown command \"$process\". Usage: api | worker | migrate [up|down]" >&2
    exit 64
    ;;
esac
