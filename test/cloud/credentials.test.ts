import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { assumeCustomerRole, roleSessionName } from '../../cloud/aws/credentials';
import {
  MOTO_ACCOUNT_ID,
  motoEndpoint,
  randomAccountId,
  randomExternalId,
  REGION,
  TEST_CREDENTIALS,
} from '../helpers/aws';

describe('assumeCustomerRole', () => {
  it('acts in the customer account under a session named after the tenant, for 15 minutes', async () => {
    const awsAccountId = randomAccountId();
    const before = Date.now();

    const sentinel = new STSClient({ region: REGION, endpoint: motoEndpoint(), credentials: TEST_CREDENTIALS });
    const credentials = await assumeCustomerRole({
      sts: sentinel,
      target: { tenantId: 'tnt_01ABC', awsAccountId, roleName: 'SentinelReadOnly', externalId: randomExternalId() },
    }).finally(() => sentinel.destroy());

    expect(credentials.expiration.getTime()).toBeGreaterThanOrEqual(before + 899_000);
    expect(credentials.expiration.getTime()).toBeLessThanOrEqual(Date.now() + 901_000);
    const sts = new STSClient({ region: REGION, endpoint: motoEndpoint(), credentials });
    try {
      const identity = await sts.send(new GetCallerIdentityCommand({}));
      expect(identity.Account).toBe(awsAccountId);
      expect(identity.Arn).toBe(`arn:aws:sts::${awsAccountId}:assumed-role/SentinelReadOnly/sentinel-tnt_01ABC`);
      expect(identity.Account).not.toBe(MOTO_ACCOUNT_ID);
    } finally {
      sts.destroy();
    }
  });
});

describe('roleSessionName', () => {
  it('keeps only the characters STS allows, within 64', () => {
    expect(roleSessionName('tnt_01ABC')).toBe('sentinel-tnt_01ABC');
    expect(roleSessionName('a b/c:d')).toBe('sentinel-a-b-c-d');
    expect(roleSessionName('x'.repeat(100))).toHaveLength(64);
  });
});
