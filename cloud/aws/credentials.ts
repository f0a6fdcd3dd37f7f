import { AssumeRoleCommand, STSClient, type STSClientConfig } from '@aws-sdk/client-sts';
import type { RoleTarget } from '../types';

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
  target: RoleTarget;
  region: string;
  endpointUrl?: string;
  /** Sentinel's own credentials; the SDK's default provider chain when omitted. */
  credentials?: STSClientConfig['credentials'];
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
  target, region, endpointUrl, credentials, sessionDurationSeconds = 900,
}: AssumeCustomerRoleInput): Promise<TemporaryCredentials> {
  const sts = new STSClient({ region, credentials, ...(endpointUrl ? { endpoint: endpointUrl } : {}) });
  try {
    const { Credentials: c } = await sts.send(new AssumeRoleCommand({
      RoleArn: customerRoleArn(target),
      RoleSessionName: roleSessionName(target.tenantId),
      ExternalId: target.externalId,
      DurationSeconds: sessionDurationSeconds,
    }));
    if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken || !c.Expiration) {
      throw new Error('STS AssumeRole returned no credentials');
    }
    return { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken, expiration: c.Expiration };
  } finally {
    sts.destroy();
  }
}
