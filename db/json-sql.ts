import { type RawBuilder, sql } from 'kysely';

/**
 * A timestamp as JavaScript's toISOString() writes it (UTC, milliseconds, `Z`), for JSON that PostgreSQL builds:
 * the API then passes it on without decoding it into a Date and encoding it again. Null stays null.
 */
export function isoTimestamp(column: RawBuilder<unknown>): RawBuilder<string | null> {
  return sql<string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
