import { EVENT_INGEST_PATH } from '../../domain/events/forwarding-rules';
import { AccountHarness } from '../helpers/account-harness';

// What a scan expects of the account's event forwarder: the account workflow's scan, with the real activities on a
// real database, tells the cloud the forwarder to read only when the account has an event key that works, and then
// the service's own ingestion URL.

let h: AccountHarness;
beforeEach(async () => {
  h = await AccountHarness.create({ config: { PUBLIC_BASE_URL: 'https://sentinel.example.com/' } });
});
afterEach(() => h?.close());

async function addEventKey(input: { tenantId: string; accountId: string }, expiresAt: Date | null): Promise<void> {
  await h.database.db
    .insertInto('account_event_keys')
    .values({
      key_hash: `hash-${input.accountId}-${expiresAt?.getTime() ?? 'current'}`,
      tenant_id: input.tenantId,
      account_id: input.accountId,
      expires_at: expiresAt,
    })
    .execute();
}

describe("a scan's event forwarder", () => {
  it('is expected at the ingestion URL of the public base URL when the account has a working event key', async () => {
    const input = await h.seedAccount();
    await addEventKey(input, null);
    await h.withActiveAccount(async () => undefined, input);
    expect(h.cloud.collections).toEqual([
      {
        awsAccountId: input.awsAccountId,
        parts: undefined,
        eventForwarder: `https://sentinel.example.com${EVENT_INGEST_PATH}`,
      },
    ]);
  });

  it('is not expected of an account connected without event forwarding, nor of one whose keys all expired', async () => {
    const input = await h.seedAccount();
    await addEventKey(input, new Date(Date.now() - 60_000));
    await h.withActiveAccount(async () => undefined, input);
    expect(h.cloud.collections).toEqual([{ awsAccountId: input.awsAccountId, parts: undefined }]);
    expect(h.cloud.collections[0]).not.toHaveProperty('eventForwarder');
  });
});
