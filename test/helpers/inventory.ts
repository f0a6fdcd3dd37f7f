import { checkById } from '../../domain/checks/catalog';
import type { PartName } from '../../domain/checks/helpers';
import type { Collected, Inventory } from '../../domain/inventory';

// Inventories for check tests: a clean account on which every check passes, and small helpers to break one thing.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const ACCOUNT = '111122223333';

export const hoursAgo = (now: string, hours: number) => new Date(Date.parse(now) - hours * HOUR_MS).toISOString();
export const daysAgo = (now: string, days: number) => new Date(Date.parse(now) - days * DAY_MS).toISOString();
const dateDaysAgo = (now: string, days: number) => daysAgo(now, days).slice(0, 10);

const ok = <T>(value: T): Collected<T> => ({ status: 'ok', value });

/** The value of a collected part, to edit in place. */
export function part<T>(collected: Collected<T>): T {
  if (collected.status !== 'ok') throw new Error(`part not collected: ${collected.reason}`);
  return collected.value;
}

/** The same inventory with one part unreadable, as when the role lacks a permission. */
export function withoutPart(inventory: Inventory, name: PartName, reason = `AccessDenied reading ${name}`): Inventory {
  return { ...inventory, [name]: { status: 'not_evaluated', reason } };
}

/**
 * A well-run account: root locked away, users with MFA and fresh keys, nothing public, a multi-region trail,
 * GuardDuty where resources are, flat spend under a budget, all contacts set. It also holds near misses that
 * must not fail (a closed abuse event, a small anomaly, an HTTPS-only security group, a blocked public policy).
 */
export function cleanInventory(now: string): Inventory {
  return {
    collectedAt: now,
    regions: { enabled: ['us-east-1', 'us-west-2', 'eu-west-1'], inUse: ['us-east-1', 'eu-west-1'] },
    iam: ok({
      rootMfaEnabled: true,
      rootAccessKeysPresent: false,
      rootLastUsedAt: daysAgo(now, 200),
      passwordPolicy: {
        minimumLength: 14, requireSymbols: true, requireNumbers: true, requireUppercase: true, requireLowercase: true,
        maxAgeDays: 90, reusePrevention: 24,
      },
      users: [
        {
          name: 'alice',
          arn: `arn:aws:iam::${ACCOUNT}:user/alice`,
          createdAt: daysAgo(now, 400),
          hasConsolePassword: true,
          mfaEnabled: true,
          accessKeys: [
            { id: 'AKIAALICE0000000001', status: 'Active', createdAt: daysAgo(now, 30), lastUsedAt: daysAgo(now, 1) },
            // Inactive keys are neither rotated nor used: the key checks ignore them.
            { id: 'AKIAALICE0000000002', status: 'Inactive', createdAt: daysAgo(now, 300), lastUsedAt: null },
          ],
          adminAccess: false,
        },
        {
          name: 'ci-deploy',
          arn: `arn:aws:iam::${ACCOUNT}:user/ci-deploy`,
          createdAt: daysAgo(now, 90),
          hasConsolePassword: false,
          mfaEnabled: false,
          accessKeys: [{ id: 'AKIACIDEPLOY00000001', status: 'Active', createdAt: daysAgo(now, 60), lastUsedAt: hoursAgo(now, 3) }],
          adminAccess: false,
        },
      ],
      roles: [{ name: 'app-server', arn: `arn:aws:iam::${ACCOUNT}:role/app-server`, adminAccess: false }],
    }),
    s3: ok({
      accountBlockPublicAccess: { blockPublicAcls: true, ignorePublicAcls: true, blockPublicPolicy: true, restrictPublicBuckets: true },
      buckets: [
        { name: 'acme-assets', region: 'us-east-1', publicViaAcl: false, publicViaPolicy: false, blockPublicAccess: null },
        {
          name: 'acme-legacy-site', region: 'eu-west-1', publicViaAcl: false, publicViaPolicy: true,
          blockPublicAccess: { blockPublicAcls: true, ignorePublicAcls: true, blockPublicPolicy: true, restrictPublicBuckets: true },
        },
      ],
    }),
    ec2: ok({
      securityGroups: [
        { id: 'sg-0web', name: 'web', region: 'us-east-1', openIngress: [{ protocol: 'tcp', fromPort: 443, toPort: 443, cidr: '0.0.0.0/0' }] },
        { id: 'sg-0default', name: 'default', region: 'eu-west-1', openIngress: [] },
      ],
      instances: [
        { id: 'i-0web', region: 'us-east-1', type: 't3.large', state: 'running', launchedAt: daysAgo(now, 100) },
        { id: 'i-0worker', region: 'eu-west-1', type: 'm7g.xlarge', state: 'running', launchedAt: daysAgo(now, 40) },
        // A new instance next to an established one is ordinary growth.
        { id: 'i-0worker2', region: 'eu-west-1', type: 'm7g.xlarge', state: 'running', launchedAt: daysAgo(now, 1) },
      ],
      publicSnapshots: [],
      publicImages: [],
    }),
    cloudtrail: ok({ trails: [{ name: 'management', homeRegion: 'us-east-1', multiRegion: true, logging: true }] }),
    guardduty: ok({
      regions: [
        { region: 'us-east-1', detectorEnabled: true, highSeverityFindings: [] },
        { region: 'eu-west-1', detectorEnabled: true, highSeverityFindings: [] },
        { region: 'us-west-2', detectorEnabled: false, highSeverityFindings: [] },
      ],
    }),
    costs: ok({
      // Ten flat days and today's partial one.
      daily: Array.from({ length: 11 }, (_, i) => ({ date: dateDaysAgo(now, i), amountUsd: i === 0 ? 8 : 20 + (i % 3) })),
    }),
    anomalies: ok({ anomalies: [{ id: 'anomaly-small', impactUsd: 3.5, startDate: dateDaysAgo(now, 5), service: 'Amazon S3' }] }),
    budgets: ok({ budgets: [{ name: 'monthly', limitUsd: 1000, actualSpendUsd: 300, forecastedSpendUsd: 650 }] }),
    alternateContacts: ok({ security: true, billing: true, operations: true }),
    health: ok({
      events: [{
        arn: `arn:aws:health:us-east-1:${ACCOUNT}:event/ABUSE/AWS_ABUSE_DOS_REPORT/old`,
        eventTypeCode: 'AWS_ABUSE_DOS_REPORT',
        service: 'ABUSE',
        region: 'us-east-1',
        startTime: daysAgo(now, 90),
        statusCode: 'closed',
      }],
    }),
  };
}

/**
 * Runs one check at the inventory's collection time: 'pass', 'not_evaluated', or the failing resources as
 * `resource@region` strings, compact enough to assert with one toEqual.
 */
export function outcome(checkId: string, inventory: Inventory): 'pass' | 'not_evaluated' | string[] {
  const check = checkById(checkId);
  if (!check) throw new Error(`unknown check ${checkId}`);
  const result = check.evaluate(inventory, { now: inventory.collectedAt });
  if (result.status !== 'fail') return result.status;
  return result.resources.map(({ resource, region = 'global' }) => `${resource}@${region}`);
}
