import type { Db } from '../../db/client';

// What following the links mailed to people does, for suites whose subject is something else (the links
// themselves are tested in test/api/email-verification.test.ts and test/api/alert-recipients.test.ts).

/** Marks a user's address verified (what following the mailed link does). */
export async function markVerified(db: Db, userId: string): Promise<void> {
  await db.updateTable('users').set({ email_verified_at: new Date() }).where('id', '=', userId).execute();
}

/** Alert e-mail addresses of a tenant that have confirmed they want its alerts (what the confirmation link does). */
export async function confirmRecipients(db: Db, tenantId: string, addresses: string[]): Promise<void> {
  if (addresses.length === 0) return;
  await db
    .insertInto('alert_recipients')
    .values(
      addresses.map((address) => ({
        tenant_id: tenantId,
        address: address.toLowerCase(),
        confirmed_at: new Date(),
        confirmation_sent_at: new Date(),
      })),
    )
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'address']).doUpdateSet({ confirmed_at: new Date(), unsubscribed_at: null }),
    )
    .execute();
}
