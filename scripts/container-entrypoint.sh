#!/bin/sh
# The image's entrypoint: its command names the process, `api` (the default), `worker` or `migrate [up|down]`.
# Each is exec'd, so node runs as PID 1 and receives the runtime's SIGTERM itself: the API and the worker drain
# on it (api/main.ts, worker/main.ts). tsx compiles the TypeScript sources as they load (esbuild, no type check).
# The worker's heap ceiling, WORKER_HEAP_MB (docs/operations.md, "Worker memory"), is what V8 sizes its growth by:
# about three quarters of the worker container's memory limit.
set -eu
process=${1:-api}
[ "$#" -eq 0 ] || shift
case "$process" in
  api) exec node --import tsx api/main.ts "$@" ;;
  worker) exec node --max-old-space-size="${WORKER_HEAP_MB:-1536}" --import tsx worker/main.ts "$@" ;;
  migrate) exec node --import tsx scripts/migrate.ts "$@" ;;
  *)
    echo "Unknown command \"$process\". Usage: api | worker | migrate [up|down]" >&2
    exit 64
    ;;
esac
