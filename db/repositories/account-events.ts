import { type Insertable, type Kysely, sql } from 'kysely';
import type { Database } from '../database';
import type { AccountEventsTable, SuppressedDetection } from '../tables/events';
import type { WindowState } from './rate-limits';
import { isoTimestamp } from '../json-sql';
import type { RegionTouch } from '../../domain/events/forwarding-health';

type Conn = Kysely<Database>;

// The account's event stream (db/migrations/20261128T000100_account_events.ts): forwarder keys, events, batches.

/** One of a tenant's enabled detections, and its version: when it last changed, as PostgreSQL writes the time. */
export interface DetectionVersion {
  id: string;
  version: string;
}

/**
 * The account each key belongs to (by the key's hash, in `key_hash`), for the keys that are current or rotated out and
 * not yet ended, with the name of its role, whether a rotation is under way (its current key replaced another since
 * `rotatedSince`: the detections read both) and its tenant's enabled Sigma rules' versions.
 */
export async function findAccountsByEventKeys({
  db,
  keyHashes,
  rotatedSince,
}: {
  db: Conn;
  keyHashes: readonly string[];
  rotatedSince: Date;
}) {
  if (keyHashes.length === 0) return [];
  return (
    db
      .selectFrom('account_event_keys as k')
      .innerJoin('accounts as a', 'a.id', 'k.account_id')
      .select([
        'k.key_hash',
        'a.id',
        'a.tenant_id',
        'a.aws_account_id',
        'a.status',
        'a.region_baseline',
        'a.region_baseline_learned_at',
        'a.workflow_id',
        'a.role_name',
      ])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('account_event_keys as current')
              .select('current.key_hash')
              .whereRef('current.account_id', '=', 'a.id')
              .where('current.expires_at', 'is', null)
              .where('current.created_at', '>', rotatedSince)
              .where((inner) =>
                inner.exists(
                  inner
                    .selectFrom('account_event_keys as replaced')
                    .select('replaced.key_hash')
                    .whereRef('replaced.account_id', '=', 'a.id')
                    .where('replaced.expires_at', 'is not', null),
                ),
              ),
          )
          .$castTo<boolean>()
          .as('event_key_rotating'),
      )
      // The tenant's enabled Sigma rules, each with its version (core/detections/tenant-rules.ts), in the same
      // read: one round trip less for every request that carries events.
      .select(
        sql<DetectionVersion[]>`coalesce((select json_agg(json_build_object('id', d.id, 'version', d.updated_at::text)
        order by d.id) from tenant_detections d where d.tenant_id = a.tenant_id and d.enabled), '[]')`.as(
          'detection_versions',
        ),
      )
      .where('k.key_hash', '=', sql<string>`any(${[...keyHashes]}::text[])`)
      .where((eb) => eb.or([eb('k.expires_at', 'is', null), eb('k.expires_at', '>', sql<Date>`now()`)]))
      .execute()
  );
}

/**
 * Adds the account's new current key. The key current until now works until `previousExpireAt` (`now` ends it at
 * once); a key rotated out earlier and still working ends now, so at most two keys ever work: the new one and the
 * one it replaces.
 */
export async function replaceEventKey({
  db,
  tenantId,
  accountId,
  keyHash,
  now,
  previousExpireAt,
}: {
  db: Conn;
  tenantId: string;
  accountId: string;
  keyHash: string;
  now: Date;
  previousExpireAt: Date;
}): Promise<void> {
  await expireEventKeys({ db, tenantId, accountId, at: now, keepCurrent: true });
  await db
    .updateTable('account_event_keys')
    .set({ expires_at: previousExpireAt })
    .where('tenant_id', '=', tenantId)
    .where('account_id', '=', accountId)
    .where('expires_at', 'is', null)
    .execute();
  await db
    .insertInto('account_event_keys')
    .values({ key_hash: keyHash, tenant_id: tenantId, account_id: accountId })
    .execute();
}

/**
 * Ends at `at` the account's keys that would work past it: every one (a disconnect, a new connection), or with
 * `keepCurrent` those rotated out already (a rotation).
 */
export async function expireEventKeys({
  db,
  tenantId,
  accountId,
  at,
  keepCurrent = false,
}: {
  db: Conn;
  tenantId: string;
  accountId: string;
  at: Date;
  keepCurrent?: boolean;
}): Promise<void> {
  await db
    .updateTable('account_event_keys')
    .set({ expires_at: at })
    .where('tenant_id', '=', tenantId)
    .where('account_id', '=', accountId)
    .where((eb) =>
      keepCurrent ? eb('expires_at', '>', at) : eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]),
    )
    .execute();
}

/** Whether the account has a key that works now: it was connected with event forwarding, so a forwarder is expected. */
export async function hasWorkingEventKey({ db, accountId }: { db: Conn; accountId: string }): Promise<boolean> {
  const row = await db
    .selectFrom('account_event_keys')
    .select('account_id')
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** An event to store: every column but its arrival, which the database stamps. */
export type NewAccountEvent = Omit<Required<Insertable<AccountEventsTable>>, 'received_at'>;

/** One ingestion request to count and store: its account, what it adds to the account's windows, its events. */
export interface EventStoreRequest {
  tenantId: string;
  accountId: string;
  /** The request's events and heartbeats, counted against `countLimit` in the key's window. */
  count: { key: string; limit: number; hits: number };
  /** The request's size (in the unit of the limit). */
  bytes: { key: string; limit: number; hits: number };
  events: readonly NewAccountEvent[];
  /** What the request tells of each region of the forwarder (its heartbeats, that it delivered). */
  touches: readonly RegionTouch[];
}

/** What became of one request: both its windows as it left them, and the ids of the events stored for it. */
export interface EventStoreResult {
  count: WindowState;
  bytes: WindowState;
  stored: Set<string>;
}

/**
 * Counts requests in their accounts' rate-limit windows (events, and bytes) and, for each that stays within both
 * limits, stores its events not stored before and records what it tells of each region of the forwarder
 * (event-forwarding.ts): one statement for any number of requests (one round trip and, outside a transaction, one
 * commit), so that ingestion commits many at once. Requests are taken in their order: within one account, a request is
 * counted after those before it, and an event that two of them carry is stored for the first within its limits (the
 * other's is a redelivery). Rate-limit rows, events and regions are written in key order, so that two writers lock
 * them alike.
 */
export async function countAndStoreEvents({
  db,
  windowSeconds,
  requests,
}: {
  db: Conn;
  windowSeconds: number;
  requests: readonly EventStoreRequest[];
}): Promise<EventStoreResult[]> {
  if (requests.length === 0) return [];
  const requestRows = requests.map(
    (r, ord) => sql`(${ord}::int, ${r.count.key}::text, ${r.count.hits}::int, ${r.count.limit}::int,
      ${r.bytes.key}::text, ${r.bytes.hits}::int, ${r.bytes.limit}::int)`,
  );
  const eventRows = requests.flatMap((r, ord) =>
    r.events.map(
      (e) => sql`(${ord}::int, ${e.account_id}::text, ${e.event_id}::text, ${e.tenant_id}::text, ${e.source}::text,
        ${e.detail_type}::text, ${e.event_name}::text, ${e.region}::text, ${e.event_time}::timestamptz,
        ${e.actor}::text, ${e.source_ip}::text, ${e.detections}::text[], ${e.detail}::jsonb, ${e.suppressed}::jsonb)`,
    ),
  );
  const touchRows = requests.flatMap((r, ord) =>
    r.touches.map(
      (t) => sql`(${ord}::int, ${r.tenantId}::text, ${r.accountId}::text, ${t.region}::text,
        ${t.heartbeatAt}::timestamptz, ${t.eventAt}::timestamptz)`,
    ),
  );
  // A request of heartbeats only stores no event; one of events only touches no heartbeat.
  const events =
    eventRows.length > 0
      ? sql`(values ${sql.join(eventRows)})`
      : sql`(select null::int, null::text, null::text, null::text, null::text, null::text, null::text, null::text,
          null::timestamptz, null::text, null::text, null::text[], null::jsonb, null::jsonb where false)`;
  const touches =
    touchRows.length > 0
      ? sql`(values ${sql.join(touchRows)})`
      : sql`(select null::int, null::text, null::text, null::text, null::timestamptz, null::timestamptz where false)`;
  const expired = sql`rl.window_start <= now() - make_interval(secs => ${windowSeconds})`;
  const { rows } = await sql<{
    ord: number;
    count: string;
    count_resets_in: number;
    bytes: string;
    bytes_resets_in: number;
    stored: string[];
  }>`
    with requests (ord, count_key, count_hits, count_limit, bytes_key, bytes_hits, bytes_limit) as (
      values ${sql.join(requestRows)}
    ), totals as (
      select key, sum(hits)::int as hits
      from (select count_key as key, count_hits as hits from requests
            union all select bytes_key, bytes_hits from requests) k
      group by key
    ), hit as (
      insert into rate_limits as rl (key, window_start, count)
      select key, now(), hits from totals order by key
      on conflict (key) do update set
        count = case when ${expired} then excluded.count else rl.count + excluded.count end,
        window_start = case when ${expired} then now() else rl.window_start end
      returning key, count,
        ceil(extract(epoch from (window_start + make_interval(secs => ${windowSeconds}) - now())))::int as resets_in
    ), counted as (
      -- Each request sees its window as it was before this statement, plus its hits and those of the requests
      -- before it.
      select r.ord, r.count_limit, r.bytes_limit,
        c.count - ct.hits + sum(r.count_hits) over (partition by r.count_key order by r.ord) as count,
        c.resets_in as count_resets_in,
        b.count - bt.hits + sum(r.bytes_hits) over (partition by r.bytes_key order by r.ord) as bytes,
        b.resets_in as bytes_resets_in
      from requests r
      join hit c on c.key = r.count_key join totals ct on ct.key = r.count_key
      join hit b on b.key = r.bytes_key join totals bt on bt.key = r.bytes_key
    ), within as (
      select ord from counted where count <= count_limit and bytes <= bytes_limit
    ), candidates as (
      -- Each event once, for the first request within its limits that carries it.
      select distinct on (v.account_id, v.event_id) v.*
      from ${events} as v (ord, account_id, event_id, tenant_id, source, detail_type, event_name, region, event_time,
        actor, source_ip, detections, detail, suppressed)
      where v.ord in (select ord from within)
      order by v.account_id, v.event_id, v.ord
    ), stored as (
      insert into account_events (account_id, event_id, tenant_id, source, detail_type, event_name, region, event_time,
        actor, source_ip, detections, detail, suppressed)
      select account_id, event_id, tenant_id, source, detail_type, event_name, region, event_time, actor, source_ip,
        detections, detail, suppressed
      from candidates order by account_id, event_id
      on conflict (account_id, event_id) do nothing
      returning account_id, event_id
    ), forwarding as (
      -- Not read below: PostgreSQL runs every data-modifying WITH once, read or not.
      insert into event_forwarding_regions as f (account_id, region, tenant_id, first_heartbeat_at, last_heartbeat_at,
        last_event_at)
      select t.account_id, t.region, min(t.tenant_id), min(t.heartbeat_at), max(t.heartbeat_at), max(t.event_at)
      from ${touches} as t (ord, tenant_id, account_id, region, heartbeat_at, event_at)
      where t.ord in (select ord from within)
      group by t.account_id, t.region
      order by t.account_id, t.region
      on conflict (account_id, region) do update set
        -- least and greatest skip nulls: a request without a heartbeat leaves the heartbeat columns as they are.
        first_heartbeat_at = least(f.first_heartbeat_at, excluded.first_heartbeat_at),
        last_heartbeat_at = greatest(f.last_heartbeat_at, excluded.last_heartbeat_at),
        last_event_at = greatest(f.last_event_at, excluded.last_event_at)
    )
    select c.ord, c.count, c.count_resets_in, c.bytes, c.bytes_resets_in,
      coalesce((select array_agg(s.event_id) from stored s
                join candidates k on k.account_id = s.account_id and k.event_id = s.event_id
                where k.ord = c.ord), '{}') as stored
    from counted c order by c.ord`.execute(db);
  if (rows.length !== requests.length) throw new Error('the event store did not answer one row per request');
  return rows.map((row) => ({
    count: { count: Number(row.count), resetsInSeconds: Math.max(1, row.count_resets_in) },
    bytes: { count: Number(row.bytes), resetsInSeconds: Math.max(1, row.bytes_resets_in) },
    stored: new Set(row.stored),
  }));
}

/** The account's events from `since` to now that set off one of these detections, newest first (at most `limit`). */
export async function recentEventsDetecting({
  db,
  accountId,
  since,
  detections,
  limit,
}: {
  db: Conn;
  accountId: string;
  since: Date;
  detections: readonly string[];
  limit: number;
}) {
  return (
    db
      .selectFrom('account_events')
      .select(['event_id', 'event_time', 'region', 'event_name', 'actor', 'detections'])
      .where('account_id', '=', accountId)
      .where('event_time', '>=', since)
      // Never after now: an event is stored no later than its arrival, and one stored before that was so cannot fill
      // the read from the future.
      .where('event_time', '<=', sql<Date>`now()`)
      .where(sql<boolean>`detections && ${sql.val([...detections])}::text[]`)
      .orderBy('event_time', 'desc')
      .limit(limit)
      .execute()
  );
}

export async function insertEventBatch({
  db,
  batch,
}: {
  db: Conn;
  batch: {
    id: string;
    tenant_id: string;
    account_id: string;
    groups: string[];
    signals_opened: number;
    received_at: Date;
  };
}): Promise<void> {
  await db.insertInto('event_batches').values(batch).execute();
}

export async function noteBatchSignals({
  db,
  batchId,
  opened,
}: {
  db: Conn;
  batchId: string;
  opened: number;
}): Promise<void> {
  await db.updateTable('event_batches').set({ signals_opened: opened }).where('id', '=', batchId).execute();
}

/** The account's batches not acted on yet (db/migrations/20261128T000100_account_events.ts), oldest first. */
export async function listUndispatchedBatches({ db, accountId }: { db: Conn; accountId: string }) {
  return db
    .selectFrom('event_batches')
    .select(['id', 'groups', 'signals_opened'])
    .where('account_id', '=', accountId)
    .where('dispatched_at', 'is', null)
    .orderBy('id')
    .execute();
}

export async function markBatchesDispatched({
  db,
  batchIds,
  at,
}: {
  db: Conn;
  batchIds: readonly string[];
  at: Date;
}): Promise<void> {
  await db
    .updateTable('event_batches')
    .set({ dispatched_at: at })
    .where('id', 'in', [...batchIds])
    .where('dispatched_at', 'is', null)
    .execute();
}

/** The accounts with a batch not acted on for `olderThanSeconds`: what their ingesting requests could not finish. */
export async function listAccountsWithBatchesLeft({
  db,
  olderThanSeconds,
  limit,
}: {
  db: Conn;
  olderThanSeconds: number;
  limit: number;
}) {
  return (
    db
      .selectFrom('accounts as a')
      .select(['a.id', 'a.tenant_id', 'a.aws_account_id', 'a.status', 'a.workflow_id'])
      // Driven from the batches not acted on (a partial index holds only those: few), not from every account.
      .where('a.id', 'in', (eb) =>
        eb
          .selectFrom('event_batches as b')
          .select('b.account_id')
          .where('b.dispatched_at', 'is', null)
          .where('b.received_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`),
      )
      .limit(limit)
      .execute()
  );
}

export interface EventFilter {
  accountId: string;
  source?: string;
  eventName?: string;
  /** Only events that set off this detection; `any`: any detection. */
  detection?: string;
  since?: Date;
  /** Keyset: rows strictly after this (event_time, event_id) in newest-first order. */
  after?: { at: Date; id: string };
  limit: number;
}

/** One event as GET /accounts/{account_id}/events shows it. */
export interface AccountEventJson {
  event_id: string;
  source: string;
  detail_type: string;
  event_name: string | null;
  region: string;
  time: string;
  received_at: string;
  actor: string | null;
  source_ip: string | null;
  detections: string[];
  suppressed: SuppressedDetection[];
}

/** A page of an account's events, newest first by (event_time, event_id); PostgreSQL writes the timestamps. */
export async function listEventPage({ db, filter }: { db: Conn; filter: EventFilter }) {
  let query = db
    .selectFrom('account_events')
    .select([
      'event_id',
      'source',
      'detail_type',
      'event_name',
      'region',
      'actor',
      'source_ip',
      'detections',
      sql<SuppressedDetection[]>`coalesce(suppressed, '[]'::jsonb)`.as('suppressed'),
      isoTimestamp(sql.ref('event_time')).as('time'),
      isoTimestamp(sql.ref('received_at')).as('received_at'),
    ])
    .where('account_id', '=', filter.accountId);
  if (filter.source) query = query.where('source', '=', filter.source);
  if (filter.eventName) query = query.where('event_name', '=', filter.eventName);
  // Read through the indexes of db/migrations/20261208T000410_filter_indexes.ts, whose predicates these repeat.
  if (filter.detection) query = query.where(sql<boolean>`cardinality(detections) > 0`);
  if (filter.detection && filter.detection !== 'any') {
    const key = `${filter.accountId} ${filter.detection}`;
    query = query.where(sql<boolean>`account_event_detections(account_id, detections) @> array[${key}]::text[]`);
  }
  if (filter.since) query = query.where('event_time', '>', filter.since);
  if (filter.after)
    query = query.where(sql<boolean>`(event_time, event_id) < (${filter.after.at}, ${filter.after.id})`);
  const rows = await query.orderBy('event_time', 'desc').orderBy('event_id', 'desc').limit(filter.limit).execute();
  return rows as AccountEventJson[];
}

/** When the account's forwarder last delivered an event (null: never). */
export async function lastEventReceivedAt({ db, accountId }: { db: Conn; accountId: string }): Promise<string | null> {
  const row = await db
    .selectFrom('account_events')
    .select(isoTimestamp(sql`max(received_at)`).as('at'))
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row?.at ?? null;
}

/**
 * Names detections on events stored before they were known: a detection with memory finds its event once the request's
 * events are stored and counted (core/events/detection-memory.ts), so the event's list of detections gets it then.
 */
export async function addEventDetections({
  db,
  accountId,
  found,
}: {
  db: Conn;
  accountId: string;
  found: readonly { eventId: string; detectionId: string }[];
}): Promise<void> {
  if (found.length === 0) return;
  const input = JSON.stringify(found.map((f) => ({ event_id: f.eventId, detection_id: f.detectionId })));
  await sql`update account_events e set detections = array(select distinct unnest(e.detections || x.ids))
    from (select event_id, array_agg(detection_id) as ids
          from jsonb_to_recordset(${input}::jsonb) as r(event_id text, detection_id text) group by event_id) x
    where e.account_id = ${accountId} and e.event_id = x.event_id`.execute(db);
}
