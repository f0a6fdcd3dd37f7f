import { organizationWorkflow } from '../../workflows';
import {
  disconnectOrganizationUpdate,
  organizationStateQuery,
  organizationWorkflowId,
  syncOrganizationUpdate,
  verifyOrganizationUpdate,
} from '../../workflows/contracts';
import { PENDING_TIMEOUT } from '../../workflows/account';
import { AccountHarness } from '../helpers/account-harness';
import { waitFor } from '../helpers/patience';

// The organization's lifecycle on the time-skipping test server: its schedule of syncs, continue-as-new and the
// PENDING timeout, with the real activities on a real database, the member accounts' own workflows on the same
// worker, and a scripted cloud.
let h: AccountHarness;
beforeEach(async () => {
  h = await AccountHarness.create();
});
afterEach(() => h?.close());

const MANAGEMENT = '300000000001';
const MEMBER = '300000000002';
let sequence = 0;

/** A tenant on the team plan with a PENDING organization; its workflow started on the harness's task queue. */
async function startOrganization({ maxSyncsPerRun }: { maxSyncsPerRun?: number } = {}) {
  sequence += 1;
  const tenantId = `ten_org${sequence}`;
  const orgId = `org_wf${sequence}`;
  const db = h.database.db;
  await db.insertInto('tenants').values({ id: tenantId, name: 'Organization tenant', plan: 'team' }).execute();
  await db
    .insertInto('organizations')
    .values({
      id: orgId,
      tenant_id: tenantId,
      management_account_id: MANAGEMENT,
      display_name: null,
      tags: [],
      external_id: 'x'.repeat(32),
      role_name: 'SentinelOrganizationRead',
      workflow_id: organizationWorkflowId(tenantId, orgId),
    })
    .execute();
  const handle = await h.env.client.workflow.start(organizationWorkflow, {
    taskQueue: h.config.temporal.taskQueue,
    workflowId: organizationWorkflowId(tenantId, orgId),
    args: [{ tenantId, orgId, syncIntervalMinutes: 60, ...(maxSyncsPerRun ? { maxSyncsPerRun } : {}) }],
  });
  return { tenantId, orgId, handle };
}

const organizationRow = (orgId: string) =>
  h.database.db.selectFrom('organizations').selectAll().where('id', '=', orgId).executeTakeFirstOrThrow();

describe('organizationWorkflow', () => {
  it('syncs at once when verified, then every interval; continue-as-new keeps its state', async () => {
    h.cloud.setOrganization(MANAGEMENT, [
      { awsAccountId: MANAGEMENT, name: 'management', status: 'ACTIVE', ouPath: 'Root' },
      { awsAccountId: MEMBER, name: 'prod', status: 'ACTIVE', ouPath: 'Root/Prod' },
    ]);
    // Account workflows started by the syncs run on the harness's task queue too: one worker serves both.
    const worker = await h.newWorker(h.config.temporal.taskQueue);
    await worker.runUntil(async () => {
      const { tenantId, orgId, handle } = await startOrganization({ maxSyncsPerRun: 2 });
      const firstRun = (await handle.describe()).runId;
      expect(await handle.executeUpdate(verifyOrganizationUpdate)).toEqual({
        status: 'ACTIVE',
        awsOrganizationId: `o-${MANAGEMENT}`,
        accountsFound: 2,
      });
      const synced = async (n: number) =>
        waitFor(async () => {
          const state = await h.env.client.workflow.getHandle(handle.workflowId).query(organizationStateQuery);
          return state.syncsCompleted === n && !state.syncing;
        });
      await synced(1);
      const member = await h.database.db
        .selectFrom('accounts')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .executeTakeFirstOrThrow();
      expect(member).toMatchObject({
        aws_account_id: MEMBER,
        status: 'ACTIVE',
        organization_id: orgId,
        tags: ['ou:Root/Prod', 'name:prod'],
      });
      expect(h.cloud.describes.get(MANAGEMENT)).toBe(2); // verification, then the first sync

      // Nothing more until the interval has passed.
      await h.env.sleep('59 minutes');
      expect((await handle.query(organizationStateQuery)).syncsCompleted).toBe(1);
      await h.env.sleep('2 minutes');
      await synced(2);
      expect(h.cloud.describes.get(MANAGEMENT)).toBe(3);
      const syncedAt = (await organizationRow(orgId)).last_sync_at;

      // The run has made its two syncs: the next one due hands over to a new run, which syncs at once.
      await h.env.sleep('61 minutes');
      await synced(3);
      const latest = h.env.client.workflow.getHandle(handle.workflowId);
      expect((await latest.describe()).runId).not.toBe(firstRun);
      expect(await latest.query(organizationStateQuery)).toMatchObject({
        status: 'ACTIVE',
        awsOrganizationId: `o-${MANAGEMENT}`,
        accountsFound: 2,
        syncIntervalMinutes: 60,
        lastSync: { ok: true },
      });
      expect((await organizationRow(orgId)).last_sync_at!.getTime()).toBeGreaterThan(syncedAt!.getTime());

      // A sync asked for runs without waiting for the interval.
      await latest.executeUpdate(syncOrganizationUpdate);
      await synced(4);

      expect(await latest.executeUpdate(disconnectOrganizationUpdate)).toEqual({ status: 'DISCONNECTED' });
      await latest.result();
      expect(await organizationRow(orgId)).toMatchObject({ status: 'DISCONNECTED' });
      // The member account stays connected: only DELETE with disconnect_accounts=true disconnects it.
      expect(
        await h.database.db
          .selectFrom('accounts')
          .select('status')
          .where('tenant_id', '=', tenantId)
          .executeTakeFirstOrThrow(),
      ).toEqual({ status: 'ACTIVE' });
    });
  });

  it('records a sync that cannot read the organization, and keeps syncing', async () => {
    h.cloud.setOrganization(MANAGEMENT, []);
    const worker = await h.newWorker(h.config.temporal.taskQueue);
    await worker.runUntil(async () => {
      const { orgId, handle } = await startOrganization();
      await handle.executeUpdate(verifyOrganizationUpdate);
      await waitFor(async () => (await handle.query(organizationStateQuery)).syncsCompleted === 1);
      h.cloud.deny(MANAGEMENT, 'The management role was deleted');
      await h.env.sleep('61 minutes');
      await waitFor(async () => (await handle.query(organizationStateQuery)).syncsCompleted === 2);
      expect(await organizationRow(orgId)).toMatchObject({
        status: 'ACTIVE',
        last_sync_error: 'The management role was deleted',
      });
      h.cloud.allow(MANAGEMENT);
      await h.env.sleep('61 minutes');
      await waitFor(async () => (await handle.query(organizationStateQuery)).syncsCompleted === 3);
      expect(await organizationRow(orgId)).toMatchObject({ status: 'ACTIVE', last_sync_error: null });
      await handle.executeUpdate(disconnectOrganizationUpdate);
    });
  });

  it(`disconnects an organization never verified within ${PENDING_TIMEOUT}`, async () => {
    const worker = await h.newWorker(h.config.temporal.taskQueue);
    await worker.runUntil(async () => {
      const { orgId, handle } = await startOrganization();
      await h.env.sleep('7 days');
      await h.env.sleep('1 minute');
      await handle.result();
      expect(await organizationRow(orgId)).toMatchObject({ status: 'DISCONNECTED' });
      expect(h.cloud.describes.get(MANAGEMENT)).toBeUndefined();
    });
  });
});
