import { acceptSignal, undoSignalAcceptance } from '../../core/signals/signals';
import type { Caller } from '../../core/deps';
import { createLogger } from '../../config/logger';
import { newId } from '../../domain/ids';
import { stateQuery } from '../../workflows/contracts';
import { type AccountHandle, alertsOf, insertRule, rootMfaOff, scanAndWait } from '../helpers/alerts';
import { AccountHarness } from '../helpers/account-harness';
import { waitFor } from '../helpers/patience';

// Accepted risk in the scan workflow, on the time-skipping test server: an accepted signal counts in no score
// and fires no alert; when its acceptance expires, the next scan scores it again and the rules see it as new.

const DAY_MS = 86_400_000;
const log = createLogger({ level: 'silent', name: 'test' });
let h: AccountHarness;
beforeEach(async () => {
  h = await AccountHarness.create();
  // h.cloud.useClock(async () => new Date(await h.env.currentTimeMs()));
});
afterEach(() => h?.close());

async function member(tenantId: string): Promise<Caller> {
  const userId = newId('user');
  const email = `${userId.toLowerCase()}@example.com`;
  await h.database.db
    .insertInto('users')
    .values({ id: userId, tenant_id: tenantId, email, name: 'Member', role: 'member' })
    .execute();
  return { userId, tenantId, role: 'member', email };
}

async function rootSignal(accountId: string): Promise<string> {
  const row = await h.database.db
    .selectFrom('signals')
    .select('id')
    .where('account_id', '=', accountId)
    .where('check_id', '=', 'iam.root_mfa_disabled')
    .where('resolved_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.id;
}

const scoreOf = async (accountId: string) => (await h.accountRow(accountId)).current_srs;

describe('an accepted signal', () => {
  it('counts in no score at once and fires no alert, even on a crossing; undone, it counts again', async () => {
    await h.withActiveAccount(async (handle: AccountHandle, input) => {
      const ruleId = await insertRule(h, input.tenantId, {
        minSrs: 60,
        scenarios: ['iam'],
        channels: [{ type: 'email', to: ['ops@example.com'] }],
      });
      h.cloud.setInventory(input.awsAccountId, rootMfaOff);
      await scanAndWait(handle, 2);
      expect(await alertsOf(h, input.accountId)).toHaveLength(1);
      expect(await scoreOf(input.accountId)).toBe(55);

      const caller = await member(input.tenantId);
      const signalId = await rootSignal(input.accountId);
      const accepted = await acceptSignal({ db: h.database.db, log }, caller, input.awsAccountId, signalId, {
        reason: 'break-glass root, in a safe',
      });
      expect(accepted.accepted).toMatchObject({
        by_user_id: caller.userId,
        reason: 'break-glass root, in a safe',
        expires_at: null,
      });
      expect(await scoreOf(input.accountId)).toBe(100);

      // A changed rule makes the next scan count as a crossing: with the finding accepted the score is 100, so nothing fires.
      await h.database.db
        .updateTable('alert_rules')
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('id', '=', ruleId)
        .execute();
      await scanAndWait(handle, 3);
      expect(await scoreOf(input.accountId)).toBe(100);
      expect(await alertsOf(h, input.accountId)).toHaveLength(1);
      const score = await h.database.db
        .selectFrom('scans')
        .select('srs')
        .where('account_id', '=', input.accountId)
        .orderBy('started_at', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      expect(score.srs).toBe(100);

      await undoSignalAcceptance({ db: h.database.db, log }, caller, input.awsAccountId, signalId);
      expect(await scoreOf(input.accountId)).toBe(55);
      await scanAndWait(handle, 4);
      const alerts = await alertsOf(h, input.accountId);
      expect(alerts).toHaveLength(2);
      expect(alerts[1]).toMatchObject({ srs_at_trigger: 55, scenarios_triggered: ['iam'] });
    });
  });

  it('counts again once its acceptance expires: the next scheduled scan scores it', async () => {
    await h.withActiveAccount(async (handle: AccountHandle, input) => {
      // Scans observe the account at the test server's (skipped) time.
      h.cloud.useClock(async () => new Date(await h.env.currentTimeMs()));
      h.cloud.setInventory(input.awsAccountId, rootMfaOff);
      await scanAndWait(handle, 2);
      const caller = await member(input.tenantId);
      const now = await h.env.currentTimeMs();
      await acceptSignal({ db: h.database.db, log }, caller, input.awsAccountId, await rootSignal(input.accountId), {
        reason: 'until the new MFA device arrives',
        expires_at: new Date(now + DAY_MS).toISOString(),
      });
      expect(await scoreOf(input.accountId)).toBe(100);

      // Scheduled scans every 6 hours, in the account's slot: two days and four hours bring eight or nine, about
      // four before the expiry and the rest after it.
      await h.env.sleep(2 * DAY_MS + 4 * 3_600_000);
      await waitFor(async () => (await handle.query(stateQuery)).scansCompleted >= 10);

      expect(await scoreOf(input.accountId)).toBe(55);
      // Scored 100 while the acceptance held, 55 from the scheduled scan that found it expired.
      const acceptance = await h.database.db.selectFrom('signal_acceptances').selectAll().executeTakeFirstOrThrow();
      const afterAcceptance = (await h.scansOf(input.accountId)).slice(2);
      const firstExpired = afterAcceptance.findIndex((s) => s.id === acceptance.expiry_scan_id);
      expect(firstExpired).toBeGreaterThan(0);
      expect(afterAcceptance[firstExpired]!.trigger).toBe('scheduled');
      expect(afterAcceptance.map((s) => s.srs)).toEqual(afterAcceptance.map((_, i) => (i < firstExpired ? 100 : 55)));
    });
  });

  // The alert side of an expiry, on a manual scan: the test server stops skipping time once a scan has started an
  // alert's delivery workflow (an abandoned child, temporalio/sdk-typescript#1101), so the scan's clock moves instead.
  it('fires the rules again once its acceptance expires, as for a new finding', async () => {
    await h.withActiveAccount(async (handle: AccountHandle, input) => {
      let offset = 0;
      h.cloud.useClock(async () => new Date(Date.now() + offset));
      // Only new iam findings fire (a threshold of 0 is never crossed).
      await insertRule(h, input.tenantId, {
        minSrs: 0,
        scenarios: ['iam'],
        channels: [{ type: 'email', to: ['ops@example.com'] }],
      });
      h.cloud.setInventory(input.awsAccountId, rootMfaOff);
      await scanAndWait(handle, 2);
      expect(await alertsOf(h, input.accountId)).toHaveLength(1);
      const caller = await member(input.tenantId);
      await acceptSignal({ db: h.database.db, log }, caller, input.awsAccountId, await rootSignal(input.accountId), {
        reason: 'until the new MFA device arrives',
        expires_at: new Date(Date.now() + DAY_MS).toISOString(),
      });

      await scanAndWait(handle, 3);
      expect(await alertsOf(h, input.accountId)).toHaveLength(1);

      offset = DAY_MS + 60_000;
      await scanAndWait(handle, 4);
      const alerts = await alertsOf(h, input.accountId);
      expect(alerts).toHaveLength(2);
      expect(alerts[1]).toMatchObject({ scenarios_triggered: ['iam'], srs_at_trigger: 55 });
      const acceptance = await h.database.db.selectFrom('signal_acceptances').selectAll().executeTakeFirstOrThrow();
      expect(alerts[1]!.scan_id).toBe(acceptance.expiry_scan_id);

      // Still expired at the next scan: not new again.
      await scanAndWait(handle, 5);
      expect(await alertsOf(h, input.accountId)).toHaveLength(2);
    });
  });
});
