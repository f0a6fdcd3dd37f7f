import type { Pool } from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// The service's Prometheus metrics (docs/operations.md, "Metrics"). Labels are bounded sets (routes, providers,
// services, outcomes, channels): never a tenant, an account, a user or an address, so no label carries what a
// tenant told us and the series count stays the same however many tenants there are. ops/ has the Grafana dashboard
// and the alerting rules built on these names.

/** One registry per process: the API's and the worker's own metrics plus Node's process metrics. */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

// --- API ---------------------------------------------------------------------------------------------------------

export const httpRequestDuration = new Histogram({
  name: 'sentinel_http_request_duration_seconds',
  help: 'HTTP requests by route template, method and status code, from the first byte read to the last written',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  registers: [registry],
});

export const httpRequestsInFlight = new Gauge({
  name: 'sentinel_http_requests_in_flight',
  help: 'HTTP requests being served',
  registers: [registry],
});

export const callerCacheLookups = new Counter({
  name: 'sentinel_caller_cache_lookups_total',
  help: "Authenticated requests by where the caller came from: hit (this process's cache) or miss (the database)",
  labelNames: ['result'] as const,
  registers: [registry],
});

export const readCacheLookups = new Counter({
  name: 'sentinel_read_cache_lookups_total',
  help:
    "Reads that may come from this process's cache (db/read-cache.ts): `read` tenant (GET /me), account_page " +
    '(GET /accounts), signal_page (GET /accounts/{account_id}/signals and GET /signals) or overview (GET /overview), ' +
    '`result` hit (the cache) or miss (the database)',
  labelNames: ['read', 'result'] as const,
  registers: [registry],
});

export const requestBodies = new Counter({
  name: 'sentinel_request_bodies_total',
  help:
    'Request bodies the API read (api/middleware/body.ts), by `reader` json (REST and tRPC) or raw (event ingestion, ' +
    'the Stripe webhook) and `outcome` read, too_large, too_deep or invalid (not JSON, another charset, cut short)',
  labelNames: ['reader', 'outcome'] as const,
  registers: [registry],
});

/** What `sentinel_read_cache_page_bytes` reads: the process's read cache, once it has one (db/read-cache.ts). */
let observedReadCache: { pageBytes(): number } | undefined;

/** The read cache whose size the gauge reports (the API process has one). */
export function observeReadCache(cache: { pageBytes(): number }): void {
  observedReadCache = cache;
}

export const readCachePageBytes = new Gauge({
  name: 'sentinel_read_cache_page_bytes',
  help: "The JSON bytes of the pages this process's read cache keeps (bounded: db/read-cache.ts)",
  registers: [registry],
  collect() {
    if (observedReadCache) this.set(observedReadCache.pageBytes());
  },
});

export const passwordHashes = new Counter({
  name: 'sentinel_password_hashes_total',
  help:
    'scrypt runs, the costliest work a request can ask for: `use` set (hashing a new password) or check (a login, ' +
    'an unknown e-mail included)',
  labelNames: ['use'] as const,
  registers: [registry],
});

// --- Both processes ----------------------------------------------------------------------------------------------

/** What `sentinel_db_pool_connections` reads of a pool: pg's Pool keeps these counts itself. */
export type PoolCounts = Pick<Pool, 'totalCount' | 'idleCount' | 'waitingCount'>;

let observedPool: PoolCounts | undefined;

export const dbPoolConnections = new Gauge({
  name: 'sentinel_db_pool_connections',
  help: 'PostgreSQL pool connections: total open, idle, and requests waiting for one',
  labelNames: ['state'] as const,
  registers: [registry],
  // Read at scrape time: the pool keeps the counts itself.
  collect() {
    const pool = observedPool;
    if (!pool) return;
    this.set({ state: 'total' }, pool.totalCount);
    this.set({ state: 'idle' }, pool.idleCount);
    this.set({ state: 'waiting' }, pool.waitingCount);
  },
});

/**
 * The process's pool, whose usage `sentinel_db_pool_connections` reports. Given by the process that owns the
 * database (api/main.ts, worker/main.ts: `observeDbPool(poolOf(db))`), so observability/ knows nothing of db/.
 */
export function observeDbPool(pool: PoolCounts | undefined): void {
  observedPool = pool;
}

// --- Worker ------------------------------------------------------------------------------------------------------

export const scansStarted = new Counter({
  name: 'sentinel_scans_started_total',
  help: 'Scans started, by cloud provider and trigger (scheduled, manual, ...)',
  labelNames: ['provider', 'trigger'] as const,
  registers: [registry],
});

export const scansCompleted = new Counter({
  name: 'sentinel_scans_completed_total',
  help: 'Scans ended, by provider and outcome: succeeded (every check evaluated), partial (some not evaluated), failed',
  labelNames: ['provider', 'outcome'] as const,
  registers: [registry],
});

export const scanDuration = new Histogram({
  name: 'sentinel_scan_duration_seconds',
  help: 'Time from a scan starting to its outcome, by provider and outcome',
  labelNames: ['provider', 'outcome'] as const,
  buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800],
  registers: [registry],
});

export const awsApiCalls = new Counter({
  name: 'sentinel_aws_api_calls_total',
  help: 'Requests sent to AWS APIs by the scanners, by service (each retry counts)',
  labelNames: ['service'] as const,
  registers: [registry],
});

export const awsApiThrottles = new Counter({
  name: 'sentinel_aws_api_throttles_total',
  help: 'AWS API requests answered with a throttling error, by service',
  labelNames: ['service'] as const,
  registers: [registry],
});

export const checksNotEvaluated = new Counter({
  name: 'sentinel_checks_not_evaluated_total',
  help: 'Checks a scan could not evaluate, by reason: denied, unsubscribed, failed, role_unavailable',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const alertEventsFired = new Counter({
  name: 'sentinel_alert_events_fired_total',
  help: 'Alert events fired by alert rules',
  registers: [registry],
});

export const deliveryOutcomes = new Counter({
  name: 'sentinel_deliveries_total',
  help: 'Alert delivery attempts by channel (email, slack, pagerduty) and outcome: delivered, held, retryable (tried again later), failed (for good)',
  labelNames: ['channel', 'outcome'] as const,
  registers: [registry],
});

export const deliveryRetries = new Counter({
  name: 'sentinel_delivery_retries_total',
  help: 'Delivery attempts after the first, by channel',
  labelNames: ['channel'] as const,
  registers: [registry],
});

export const awsEventsReceived = new Counter({
  name: 'sentinel_aws_events_received_total',
  help: "Events the accounts' EventBridge forwarders delivered (POST /ingest/aws/events), by outcome: stored, duplicate, heartbeat (recorded as its region's last heartbeat, not stored), rate_limited",
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const eventStoreGroupRequests = new Histogram({
  name: 'sentinel_event_store_group_requests',
  help: 'Ingestion requests committed together in one transaction (core/events/group-commit.ts): one under a light load, dozens in a burst',
  buckets: [1, 2, 5, 10, 20, 50, 100, 200],
  registers: [registry],
});

export const eventSignalsOpened = new Counter({
  name: 'sentinel_event_signals_opened_total',
  help: 'Signals the event detections opened, by detection (event.*)',
  labelNames: ['detection'] as const,
  registers: [registry],
});

/** Every metric Sentinel defines itself (the Temporal SDK's own are prefixed `temporal_`). */
export const SENTINEL_METRIC_NAMES = [
  httpRequestDuration,
  httpRequestsInFlight,
  callerCacheLookups,
  readCacheLookups,
  requestBodies,
  readCachePageBytes,
  passwordHashes,
  dbPoolConnections,
  scansStarted,
  scansCompleted,
  scanDuration,
  awsApiCalls,
  awsApiThrottles,
  checksNotEvaluated,
  alertEventsFired,
  deliveryOutcomes,
  deliveryRetries,
  awsEventsReceived,
  eventSignalsOpened,
].map((metric) => (metric as unknown as { name: string }).name);
