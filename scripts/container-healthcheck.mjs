// The image's HEALTHCHECK (Docker and podman run it; Kubernetes uses the chart's probes instead). One image runs
// three processes, so it looks at what PID 1 is: the API must answer GET /healthz on PORT, the worker its
// metrics port (WORKER_METRICS_PORT on 127.0.0.1, so METRICS_HOST must include loopback, as 0.0.0.0 does);
// a migration is healthy while it runs.
import { readFileSync } from 'node:fs';

const command = readFileSync('/proc/1/cmdline', 'utf8');
const url = command.includes('api/main.ts')
  ? `http://127.0.0.1:${process.env.PORT || 3000}/healthz`
  : command.includes('worker/main.ts')
    ? `http://127.0.0.1:${process.env.WORKER_METRICS_PORT || 9465}/metrics`
    : undefined;
if (url === undefined) process.exit(0);
fetch(url, { signal: AbortSignal.timeout(4000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
