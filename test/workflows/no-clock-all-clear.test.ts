import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { acknowledgeAlert } from '../../core/alerts/alerts';
import type { Caller } from '../../core/deps';
import { acceptSignal } from '../../core/signals/signals';
import { createLogger } from '../../config/logger';
import { regionBaselineOf } from '../../db/repositories/accounts';
import { detectionRegions } from '../../domain/checks/region-baseline';
import { detectEvent } from '../../domain/events/detections';
import { parseEnvelope, toAccountEvent } from '../../domain/events/normalize';
import { newId } from '../../domain/ids';
import type { Inventory } from '../../domain/scans/inventory';
import { REVIEW_DAYS } from '../../domain/signals/lifecycle';
import { type AccountHandle, alertsOf, insertRule, scanAndWait } from '../helpers/alerts';
import { AccountHarness } from '../helpers/account-harness';
import { ACCOUNT, cleanInventory, part, WELL_RUN_INSTANCE } from '../helpers/inventory';

// No clock-based all-clear (docs/decisions.md), in the account workflow on the time-skipping test server with real
// PostgreSQL: the region baseline is learned from the first scan and moved only by an acceptance; users created
// between two scans are flagged whatever the interval, and their signals wait for a review or REVIEW_DAYS. Scans
// are asked for by hand at chosen times: the scripted cloud observes the account at `offset` from now.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const FAR_REGION = 'ap-southeast-3';
const log = createLogger({ level: 'silent', name: 'test' });

let h: AccountHarness;
let offset = 0;
beforeEach(async () => {
  h = await AccountHarness.create();
  offset = 0;
  h.cloud.useClock(async () => new Date(Date.now() + offset));
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

const signalsOf = (accountId: string, checkId: string) =>
  h.database.db
    .selectFrom('signals')
    .select(['id', 'resource', 'region', 'detected_at', 'resolved_at'])
    .where('account_id', '=', accountId)
    .where('check_id', '=', checkId)
    .orderBy('detected_at')
    .execute();

/** Scans the account as the scripted cloud sees it `at` (ms from now), the scan count then reaching `total`. */
async function scanAt(handle: AccountHandle, at: number, total: number): Promise<void> {
  offset = at;
  await scanAndWait(handle, total);
}

describe('the region baseline', () => {
  it('is learned from the first scan; an instance launched later elsewhere stays flagged at 8 and 30 days; accepting it adds its region', async () => {
    await h.withActiveAccount(async (handle, input) => {
      const learned = await h.accountRow(input.accountId);
      // The clean account: instances in us-east-1 and eu-west-1, its trail, database and file system in us-east-1.
      expect(learned.region_baseline).toEqual(['eu-west-1', 'us-east-1']);
      expect(learned.region_baseline_learned_at).toEqual(learned.last_successful_scan_at);
      // The previous release's column says the same, for its processes during a deploy.
      expect(learned.used_regions).toEqual(['eu-west-1', 'us-east-1']);

      // A day later an instance starts in a region the account never used, and keeps running.
      const launchedAt = new Date(Date.now() + DAY_MS).toISOString();
      h.cloud.setInventory(input.awsAccountId, (at) => withFarInstance(at, launchedAt));
      await scanAt(handle, DAY_MS + HOUR_MS, 2);
      const [opened] = await signalsOf(input.accountId, 'threat.instance_in_unused_region');
      expect(opened).toMatchObject({ resource: 'i-0far', region: FAR_REGION, resolved_at: null });

      // Eight days after its launch, then thirty: its age brings its region into nothing.
      await scanAt(handle, 9 * DAY_MS + HOUR_MS, 3);
      await scanAt(handle, 31 * DAY_MS + HOUR_MS, 4);
      expect(await signalsOf(input.accountId, 'threat.instance_in_unused_region')).toEqual([opened]);
      expect((await h.accountRow(input.accountId)).region_baseline).toEqual(['eu-west-1', 'us-east-1']);
      // The event detection judges launches by the same baseline.
      expect(launchDetections(await h.accountRow(input.accountId))).toEqual([
        'event.instance_launched_in_unused_region',
      ]);

      // A member accepts it for good: its region joins the baseline, and the audit log says who and when.
      const caller = await member(input.tenantId);
      await acceptSignal({ db: h.database.db, log }, caller, input.awsAccountId, opened!.id, {
        reason: 'the Jakarta office runs its build agents there',
      });
      const accepted = await h.accountRow(input.accountId);
      expect(accepted.region_baseline).toEqual(['ap-southeast-3', 'eu-west-1', 'us-east-1']);
      expect(accepted.used_regions).toEqual(['ap-southeast-3', 'eu-west-1', 'us-east-1']);
      const audit = await h.database.db
        .selectFrom('audit_events')
        .selectAll()
        .where('tenant_id', '=', input.tenantId)
        .where('action', '=', 'account.region_baseline_extended')
        .execute();
      expect(audit).toEqual([
        expect.objectContaining({
          actor_user_id: caller.userId,
          target: `account:${input.awsAccountId}`,
          details: { region: FAR_REGION, signal_id: opened!.id, check_id: 'threat.instance_in_unused_region' },
        }),
      ]);
      expect(launchDetections(accepted)).toEqual([]);

      // The next scan no longer flags the instance; the accepted signal resolves, and nothing new opens.
      await scanAt(handle, 31 * DAY_MS + 2 * HOUR_MS, 5);
      const after = await signalsOf(input.accountId, 'threat.instance_in_unused_region');
      expect(after).toHaveLength(1);
      expect(after[0]!.resolved_at).not.toBeNull();
    });
  });

  it('is not moved by an acceptance with an expiry: the instance is flagged again once it ends', async () => {
    await h.withActiveAccount(async (handle, input) => {
      const launchedAt = new Date(Date.now() + HOUR_MS).toISOString();
      h.cloud.setInventory(input.awsAccountId, (at) => withFarInstance(at, launchedAt));
      await scanAt(handle, 2 * HOUR_MS, 2);
      const [opened] = await signalsOf(input.accountId, 'threat.instance_in_unused_region');
      await acceptSignal({ db: h.database.db, log }, await member(input.tenantId), input.awsAccountId, opened!.id, {
        reason: 'a load test this week',
        expires_at: new Date(Date.now() + 7 * DAY_MS).toISOString(),
      });
      expect((await h.accountRow(input.accountId)).region_baseline).toEqual(['eu-west-1', 'us-east-1']);
      await scanAt(handle, 8 * DAY_MS, 3);
      expect(await signalsOf(input.accountId, 'threat.instance_in_unused_region')).toEqual([opened]);
      expect((await h.accountRow(input.accountId)).current_srs).toBeLessThan(80);
    });
  });
});

describe('users created since the previous scan', () => {
  it('flags a user created between two scans three days apart; its signal stays open at the next scan and resolves once its alert is acknowledged', async () => {
    await h.withActiveAccount(async (handle, input) => {
      await insertRule(h, input.tenantId, {
        minSrs: 0,
        scenarios: ['threat'],
        channels: [{ type: 'email', to: ['ops@example.com'] }],
      });
      const createdAt = new Date(Date.now() + DAY_MS).toISOString();
      h.cloud.setInventory(input.awsAccountId, (at) => withUser(at, createdAt));

      // Three days after the first scan: created in between, so new, though older than a day.
      await scanAt(handle, 3 * DAY_MS, 2);
      const [opened] = await signalsOf(input.accountId, 'threat.iam_user_created_recently');
      expect(opened).toMatchObject({ resource: BACKUP_USER_ARN, resolved_at: null });
      const [alert] = await alertsOf(h, input.accountId);
      expect(alert).toMatchObject({ scenarios_triggered: ['threat'], acknowledged_at: null });

      // An hour later the user is older than the previous scan: not flagged, and its signal stays open.
      await scanAt(handle, 3 * DAY_MS + HOUR_MS, 3);
      expect(await signalsOf(input.accountId, 'threat.iam_user_created_recently')).toEqual([opened]);
      // The window of the next scan starts at this one's collection.
      const account = await h.accountRow(input.accountId);
      expect(account.identities_scanned_at).toEqual(account.last_successful_scan_at);

      // Acknowledging the alert it was behind is a review: the next scan resolves it.
      await acknowledgeAlert({ db: h.database.db, log }, await member(input.tenantId), alert!.id);
      await scanAt(handle, 3 * DAY_MS + 2 * HOUR_MS, 4);
      const [resolved] = await signalsOf(input.accountId, 'threat.iam_user_created_recently');
      expect(resolved!.resolved_at).not.toBeNull();
    });
  });

  it('resolves an unreviewed signal only once the review time has passed since it opened', async () => {
    await h.withActiveAccount(async (handle, input) => {
      const createdAt = new Date(Date.now() + DAY_MS).toISOString();
      h.cloud.setInventory(input.awsAccountId, (at) => withUser(at, createdAt));
      await scanAt(handle, 3 * DAY_MS, 2);
      const [opened] = await signalsOf(input.accountId, 'threat.iam_user_created_recently');
      expect(opened).toBeDefined();

      // Not flagged by these scans, not reviewed: open until REVIEW_DAYS after it opened.
      await scanAt(handle, 3 * DAY_MS + HOUR_MS, 3);
      await scanAt(handle, (3 + REVIEW_DAYS) * DAY_MS - HOUR_MS, 4);
      expect(await signalsOf(input.accountId, 'threat.iam_user_created_recently')).toEqual([opened]);
      await scanAt(handle, (3 + REVIEW_DAYS) * DAY_MS + HOUR_MS, 5);
      const [resolved] = await signalsOf(input.accountId, 'threat.iam_user_created_recently');
      expect(resolved!.resolved_at).not.toBeNull();
    });
  });

  it('resolves an accepted one at the next scan that does not flag it', async () => {
    await h.withActiveAccount(async (handle, input) => {
      const createdAt = new Date(Date.now() + DAY_MS).toISOString();
      h.cloud.setInventory(input.awsAccountId, (at) => withUser(at, createdAt));
      await scanAt(handle, 3 * DAY_MS, 2);
      const [opened] = await signalsOf(input.accountId, 'threat.iam_user_created_recently');
      await acceptSignal({ db: h.database.db, log }, await member(input.tenantId), input.awsAccountId, opened!.id, {
        reason: 'the backup service account, created by the platform team',
      });
      await scanAt(handle, 3 * DAY_MS + HOUR_MS, 3);
      const [resolved] = await signalsOf(input.accountId, 'threat.iam_user_created_recently');
      expect(resolved!.resolved_at).not.toBeNull();
    });
  });
});

const BACKUP_USER_ARN = `arn:aws:iam::${ACCOUNT}:user/backup-svc`;

/** The clean account with an IAM user created at `createdAt`. */
function withUser(at: Date, createdAt: string): Inventory {
  const inventory = cleanInventory(at.toISOString());
  part(inventory.iamPrincipals).users.push({
    name: 'backup-svc',
    arn: BACKUP_USER_ARN,
    createdAt,
    accessKeys: [],
    adminAccess: false,
    managedPolicies: [],
    directPolicies: [],
    fullAdminPolicies: [],
  });
  return inventory;
}

/** The clean account with an instance running in FAR_REGION since `launchedAt`. */
function withFarInstance(at: Date, launchedAt: string): Inventory {
  const inventory = cleanInventory(at.toISOString());
  part(inventory.instances).instances.push({
    id: 'i-0far',
    region: FAR_REGION,
    type: 'c5.large',
    state: 'running',
    launchedAt,
    ...WELL_RUN_INSTANCE,
  });
  return inventory;
}

/** What the event detections make of a RunInstances in FAR_REGION (the fixture's), given the account's baseline. */
function launchDetections(account: Parameters<typeof regionBaselineOf>[0]): string[] {
  const body = JSON.parse(
    readFileSync(join(__dirname, '../fixtures/aws-events/run-instances-unused-region.json'), 'utf8'),
  );
  const parsed = parseEnvelope(body);
  if (!parsed.ok) throw new Error(parsed.reason);
  return detectEvent(toAccountEvent(parsed.envelope), {
    usedRegions: detectionRegions(regionBaselineOf(account)),
    roleName: null,
    eventKeyRotating: false,
  })
    .map((d) => d.detection.id)
    .filter((id) => id === 'event.instance_launched_in_unused_region');
}
