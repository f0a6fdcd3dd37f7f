import { type Kysely, sql } from 'kysely';
import type { RecipientFacts, RecipientState } from '../../domain/alerts/recipients';
import type { Database } from '../database';

type Conn = Kysely<Database>;

/** Whether the address's last confirmation e-mail is younger than `days` (its link still works). */
const askedWithin = (days: number) =>
  sql<boolean>`coalesce(confirmation_sent_at > now() - make_interval(days => ${days}), false)`;

/** What decides who of `addresses` an alert e-mail of the tenant may go to (domain/alerts/recipients.ts). */
export async function loadRecipientFacts({
  db,
  tenantId,
  addresses,
  linkDays,
}: {
  db: Conn;
  tenantId: string;
  addresses: string[];
  linkDays: number;
}): Promise<RecipientFacts> {
  const lower = [...new Set(addresses.map((a) => a.toLowerCase()))];
  const [owner, verified, known] = await Promise.all([
    db
      .selectFrom('users')
      .select('email_verified_at')
      .where('tenant_id', '=', tenantId)
      .where('role', '=', 'owner')
      .executeTakeFirst(),
    lower.length === 0
      ? []
      : db
          .selectFrom('users')
          .select('email')
          .where('tenant_id', '=', tenantId)
          .where('email', 'in', lower)
          .where('email_verified_at', 'is not', null)
          .execute(),
    lower.length === 0
      ? []
      : db
          .selectFrom('alert_recipients')
          .select(['address', 'confirmed_at', 'unsubscribed_at', askedWithin(linkDays).as('asked')])
          .where('tenant_id', '=', tenantId)
          .where('address', 'in', lower)
          .execute(),
  ]);
  return {
    ownerVerified: owner?.email_verified_at != null,
    verifiedUsers: new Set(verified.map((u) => u.email)),
    recipients: new Map(
      known.map((r): [string, RecipientState] => [
        r.address,
        {
          confirmed: r.confirmed_at !== null,
          unsubscribed: r.unsubscribed_at !== null,
          confirmationSent: r.asked,
        },
      ]),
    ),
  };
}

/**
 * Claims the confirmation e-mail of an address (one while its link lives): answers the claim's time to exactly
 * one caller, however many deliveries to it run at once. A send that then fails gives the claim back
 * (releaseConfirmation).
 */
export async function claimConfirmation({
  db,
  tenantId,
  address,
  linkDays,
}: {
  db: Conn;
  tenantId: string;
  address: string;
  linkDays: number;
}): Promise<Date | undefined> {
  await db
    .insertInto('alert_recipients')
    .values({ tenant_id: tenantId, address })
    .onConflict((oc) => oc.columns(['tenant_id', 'address']).doNothing())
    .execute();
  const claimed = await db
    .updateTable('alert_recipients')
    .set({ confirmation_sent_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('address', '=', address)
    .where(sql<boolean>`not ${askedWithin(linkDays)}`)
    .where('confirmed_at', 'is', null)
    .returning('confirmation_sent_at')
    .executeTakeFirst();
  return claimed?.confirmation_sent_at ?? undefined;
}

export async function releaseConfirmation({
  db,
  tenantId,
  address,
}: {
  db: Conn;
  tenantId: string;
  address: string;
}): Promise<void> {
  await db
    .updateTable('alert_recipients')
    .set({ confirmation_sent_at: null })
    .where('tenant_id', '=', tenantId)
    .where('address', '=', address)
    .where('confirmed_at', 'is', null)
    .execute();
}

/** The address asked for the tenant's alerts (a confirmation link): confirmed, and subscribed again if it had left. */
export async function confirmRecipient({
  db,
  tenantId,
  address,
}: {
  db: Conn;
  tenantId: string;
  address: string;
}): Promise<void> {
  await db
    .insertInto('alert_recipients')
    .values({ tenant_id: tenantId, address, confirmed_at: sql`now()`, confirmation_sent_at: sql`now()` })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'address']).doUpdateSet({
        confirmed_at: sql`coalesce(alert_recipients.confirmed_at, now())`,
        unsubscribed_at: null,
      }),
    )
    .execute();
}

/** The address wants no more of the tenant's alert e-mails. */
export async function unsubscribeRecipient({
  db,
  tenantId,
  address,
}: {
  db: Conn;
  tenantId: string;
  address: string;
}): Promise<void> {
  await db
    .insertInto('alert_recipients')
    .values({ tenant_id: tenantId, address, unsubscribed_at: sql`now()` })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'address']).doUpdateSet({
        unsubscribed_at: sql`coalesce(alert_recipients.unsubscribed_at, now())`,
      }),
    )
    .execute();
}
