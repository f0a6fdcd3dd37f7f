import { AssumeRoleCommand, type STSClient } from '@aws-sdk/client-sts';
import type { RoleTarget } from '../../domain/onboarding/role';

// The one way into a customer's account: their role, assumed with our ExternalId. The credentials it returns
// stay inside cloud/: they are handed to SDK clients and never logged, stored or returned further.

/** An AWS SDK credential identity that always carries its expiry. */
export interface TemporaryCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expiration: Date;
}

export interface AssumeCustomerRoleInput {
  /** STS with Sentinel's own credentials: one client for the process, not one per call. */
  sts: STSClient;
  target: RoleTarget;
  /** The shortest AWS allows by default: a check or a scan needs minutes, and a leak is worth less. */
  sessionDurationSeconds?: number;
}

export function customerRoleArn({ awsAccountId, roleName }: Pick<RoleTarget, 'awsAccountId' | 'roleName'>): string {
  return `arn:aws:iam::${awsAccountId}:role/${roleName}`;
}

/** Shows up in the customer's CloudTrail, so they can tell which Sentinel tenant used their role. */
export function roleSessionName(tenantId: string): string {
  return `sentinel-${tenantId}`.replace(/[^\w+=,.@-]/g, '-').slice(0, 64);
}

export async function assumeCustomerRole({
  sts,
  target,
  sessionDurationSeconds = 900,
}: AssumeCustomerRoleInput): Promise<TemporaryCredentials> {
  const { Credentials: c } = await sts.send(
    new AssumeRoleCommand({
      RoleArn: customerRoleArn(target),
      RoleSessionName: roleSessionName(target.tenantId),
      ExternalId: target.externalId,
      DurationSeconds: sessionDurationSeconds,
    }),
  );
  if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken || !c.Expiration) {
    throw new Error('STS AssumeRole returned no credentials');
  }
  return {
    accessKeyId: c.AccessKeyId,
    secretAccessKey: c.SecretAccessKey,
    sessionToken: c.SessionToken,
    expiration: c.Expiration,
  };
}

/**
 * The role's credentials for a whole collection, renewed before they expire: a scan of a large account outlives
 * one 15-minute session. Renewal starts when `renewBeforeMs` (or half the session, if shorter) is left; one
 * AssumeRole at a time, whatever the number of calls waiting. The SDK asks again as expiry nears.
 */
export function renewingCredentials({
  first,
  assume,
  renewBeforeMs = 5 * 60_000,
  now = Date.now,
}: {
  first: TemporaryCredentials;
  assume: () => Promise<TemporaryCredentials>;
  renewBeforeMs?: number;
  now?: () => number;
}): () => Promise<TemporaryCredentials> {
  let current = first;
  let obtainedAt = now();
  let renewal: Promise<TemporaryCredentials> | undefined;
  const renewAt = () => {
    const expiry = current.expiration.getTime();
    return expiry - Math.min(renewBeforeMs, (expiry - obtainedAt) / 2);
  };
  return async () => {
    if (now() < renewAt()) return current;
    renewal ??= assume()
      .then((next) => {
        current = next;
        obtainedAt = now();
        return next;
      })
      .finally(() => {
        renewal = undefined;
      });
    return renewal;
  };
}
