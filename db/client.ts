import { Kysely, PostgresDialect } from 'kysely';
import { Pool, types } from 'pg';
import type { Database } from './database';

// DATE columns stay 'YYYY-MM-DD' strings: a calendar day has no time zone to shift it.
types.setTypeParser(types.builtins.DATE, (value) => value);

export type Db = Kysely<Database>;

// The pool behind each Db, for its metrics (Kysely does not expose it).
const pools = new WeakMap<Db, Pool>();

export function poolOf(db: Db): Pool | undefined {
  return pools.get(db);
}

/**
 * One pool per process. The pool reconnects by itself when PostgreSQL comes back after an outage. With
 * `statementTimeoutMs` (the API's), every statement of every connection is cancelled by PostgreSQL past it (SQLSTATE
 * 57014): the session's `statement_timeout`, set as each connection starts.
 */
export function createDb({
  url,
  maxConnections = 10,
  statementTimeoutMs,
}: {
  url: string;
  maxConnections?: number;
  statementTimeoutMs?: number;
}): Db {
  const pool = new Pool({
    connectionString: url,
    max: maxConnections,
    connectionTimeoutMillis: 5_000,
    ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
  });
  // An idle client whose server went away emits 'error'; without a listener it would crash the process.
  pool.on('error', () => undefined);
  // So does a checked-out one (the pool listens only to idle clients); its query fails on its own, and the pool
  // drops the client when it comes back.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}
