import type { Kysely } from 'kysely';
import type { Database } from '../database';

type Conn = Kysely<Database>;

/** Writes an e-mail to the outbox once per idempotency key; false when that key was written already. */
export async function insertOutboxEmail({
  db,
  email,
}: {
  db: Conn;
  email: {
    id: string;
    idempotency_key: string;
    to_addresses: string[];
    subject: string;
    text_body: string;
    html_body: string | null;
    headers: string | null;
  };
}): Promise<boolean> {
  const inserted = await db
    .insertInto('email_outbox')
    .values(email)
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}
