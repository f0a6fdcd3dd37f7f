import { spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import path from 'node:path';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { PROJECT_ROOT } from '../../scripts/tools';

// Both sides of a cross-account setup on the shared moto server. Credentials are always given explicitly,
// so nothing depends on the developer's own AWS configuration.

export const REGION = 'us-east-1';
/** The account moto's default credentials act in: Sentinel's own account in these tests. */
export const MOTO_ACCOUNT_ID = '123456789012';
export const TEST_CREDENTIALS = { accessKeyId: 'testing', secretAccessKey: 'testing' };
const VENV_BIN = path.join(PROJECT_ROOT, '.tools/venv/bin');

export function motoEndpoint(): string {
  const endpoint = process.env.TEST_AWS_ENDPOINT;
  if (!endpoint) throw new Error('TEST_AWS_ENDPOINT is not set: run the tests through jest (test/setup/global-setup.ts)');
  return endpoint;
}

/** A fresh account id per test, so moto's per-account IAM state starts empty. */
export function randomAccountId(): string {
  return String(randomInt(100_000_000_000, 999_999_999_998));
}

export const randomExternalId = (): string => randomBytes(24).toString('base64url');

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
}

export interface CustomerAccount {
  accountId: string;
  credentials: Credentials;
  iam: IAMClient;
}

/** Plays the customer: an administrator of a new account (moto acts in the account of an assumed role). */
export async function customerAccount(): Promise<CustomerAccount> {
  const accountId = randomAccountId();
  const sts = new STSClient({ region: REGION, endpoint: motoEndpoint(), credentials: TEST_CREDENTIALS });
  try {
    const { Credentials: c } = await sts.send(new AssumeRoleCommand({
      RoleArn: `arn:aws:iam::${accountId}:role/bootstrap`, RoleSessionName: 'customer-admin',
    }));
    if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken) throw new Error('moto returned no credentials');
    const credentials = { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken };
    return { accountId, credentials, iam: new IAMClient({ region: REGION, endpoint: motoEndpoint(), credentials }) };
  } finally {
    sts.destroy();
  }
}

export async function createRole({ customer, roleName, trustPolicy }: { customer: CustomerAccount; roleName: string; trustPolicy: unknown }): Promise<void> {
  await customer.iam.send(new CreateRoleCommand({ RoleName: roleName, AssumeRolePolicyDocument: JSON.stringify(trustPolicy) }));
}

/** Runs a shell script with the AWS CLI as the customer would, against moto. Throws with its stderr on failure. */
export function runAsCustomer({ script, customer }: { script: string; customer: CustomerAccount }): string {
  const run = spawnSync('bash', ['-c', script], {
    encoding: 'utf8',
    timeout: 60_000,
    // Not a pipe: bash reads ~/.bashrc when its stdin is a socket, which is what Node's pipes are.
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: `${VENV_BIN}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      AWS_ACCESS_KEY_ID: customer.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: customer.credentials.secretAccessKey,
      AWS_SESSION_TOKEN: customer.credentials.sessionToken,
      AWS_DEFAULT_REGION: REGION,
      AWS_ENDPOINT_URL: motoEndpoint(),
      AWS_CONFIG_FILE: '/dev/null',
      AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
    },
  });
  if (run.status !== 0) {
    // moto knows AWS managed policies (SecurityAudit, ...) only when its server is started with this variable.
    const hint = /arn:aws:iam::aws:policy\/.* does not exist/.test(run.stderr)
      ? '\nmoto_server must run with MOTO_IAM_LOAD_MANAGED_POLICIES=true (test/setup/moto.ts)'
      : '';
    throw new Error(`script exited with ${run.status ?? run.signal}:\n${run.stderr}${hint}`);
  }
  return run.stdout;
}
