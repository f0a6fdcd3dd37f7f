import type { Collected, Inventory } from '../../../domain/inventory';
import type { CollectOptions } from '../../types';
import type { TemporaryCredentials } from '../credentials';
import { collectAlternateContacts } from './account';
import { collectBilling } from './billing';
import { collectCloudTrail } from './cloudtrail';
import { settleAll } from './concurrency';
import { collectEc2 } from './ec2';
import { collectGuardDuty } from './guardduty';
import { collectHealth } from './health';
import { collectIam } from './iam';
import { readPart } from './refusals';
import { enabledRegions } from './regions';
import { collectS3 } from './s3';
import { openSession } from './session';

// Reads a customer's account through credentials of their role, one service group at a time in parallel.
// A group AWS refuses is "not evaluated"; any other error fails the whole collection (to be retried), after
// every group has stopped, so that no call outlives it.

export interface CollectInput extends CollectOptions {
  credentials: TemporaryCredentials;
  endpointUrl?: string;
  accountId: string;
  roleName: string;
  now: Date;
}

export async function collectAccountInventory({
  credentials, endpointUrl, accountId, roleName, now, onProgress,
}: CollectInput): Promise<Inventory> {
  const session = openSession({ credentials, endpointUrl, accountId, roleName });
  const step = async <T>(group: string, work: Promise<T>): Promise<T> => {
    const done = await work;
    onProgress?.(group);
    return done;
  };
  try {
    const regions = await step('regions', readPart(() => enabledRegions(session)));
    const regional = <T>(read: (regions: string[]) => Promise<Collected<T>>): Promise<Collected<T>> =>
      (regions.status === 'ok' ? read(regions.value) : Promise.resolve(regions));

    const [iam, s3, ec2, cloudtrail, guardduty, billing, alternateContacts, health] = await settleAll([
      step('iam', collectIam(session)),
      step('s3', collectS3(session)),
      step('ec2', regions.status === 'ok'
        ? collectEc2({ session, regions: regions.value })
        : Promise.resolve({ ec2: regions, regionsInUse: [] })),
      step('cloudtrail', regional((value) => collectCloudTrail({ session, regions: value }))),
      step('guardduty', regional((value) => collectGuardDuty({ session, regions: value }))),
      step('billing', collectBilling({ session, now })),
      step('account', collectAlternateContacts(session)),
      step('health', collectHealth(session)),
    ]);

    // In use: a region with an instance that is not terminated, a security group other than a VPC's "default"
    // (every enabled region has one), or the home of a trail. Parts that could not be read add nothing.
    const trailHomes = cloudtrail.status === 'ok' ? cloudtrail.value.trails.map((t) => t.homeRegion) : [];
    const inUse = [...new Set([...ec2.regionsInUse, ...trailHomes])].sort();

    return {
      collectedAt: now.toISOString(),
      regions: { enabled: regions.status === 'ok' ? regions.value : [], inUse },
      iam,
      s3,
      ec2: ec2.ec2,
      cloudtrail,
      guardduty,
      ...billing,
      alternateContacts,
      health,
    };
  } finally {
    session.close();
  }
}
