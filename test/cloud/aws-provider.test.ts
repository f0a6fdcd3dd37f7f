import { GetRoleCommand, GetRolePolicyCommand, ListAttachedRolePoliciesCommand } from '@aws-sdk/client-iam';
import { createAwsProvider } from '../../cloud/aws/provider';
import type { AccessCheck, CloudProvider } from '../../cloud/types';
import { createLogger } from '../../config/logger';
import {
  BILLING_POLICY_NAME,
  billingReadPolicy,
  cliScript,
  MANAGED_POLICIES,
  ROLE_NAME,
  SCAN_POLICY_NAME,
  scanReadPolicy,
  type RoleTarget,
  roleArn,
  trustPolicy,
} from '../../domain/onboarding/role';
import {
  createRole,
  customerAccount,
  type CustomerAccount,
  MOTO_ACCOUNT_ID,
  motoEndpoint,
  randomExternalId,
  REGION,
  runAsCustomer,
  TEST_CREDENTIALS,
} from '../helpers/aws';

// moto does not evaluate trust policies at AssumeRole, so every failure below is found by reading the role,
// which is also what catches a role that real AWS would let us assume without our ExternalId.

const log = createLogger({ level: 'silent', name: 'test' });
const policyDocument = (raw: string | undefined) => JSON.parse(decodeURIComponent(raw ?? ''));
const reasonOf = (check: AccessCheck) => (check.ok ? '' : check.reason);

function targetFor(customer: CustomerAccount, externalId = randomExternalId()): RoleTarget {
  return { tenantId: 'tnt_test', awsAccountId: customer.accountId, roleName: ROLE_NAME, externalId };
}

describe('AWS provider against moto', () => {
  let provider: CloudProvider;
  beforeAll(() => {
    provider = createAwsProvider({
      region: REGION,
      endpointUrl: motoEndpoint(),
      sentinelAccountId: MOTO_ACCOUNT_ID,
      credentials: TEST_CREDENTIALS,
      log,
    });
  });

  it('accepts the role that the fallback CLI script creates', async () => {
    const customer = await customerAccount();
    const target = targetFor(customer);
    const setup = { sentinelAccountId: MOTO_ACCOUNT_ID, externalId: target.externalId };

    const output = await runAsCustomer({ script: cliScript(setup), customer });

    expect(output).toContain(`Role created: ${roleArn(customer.accountId)}`);
    const { Role } = await customer.iam.send(new GetRoleCommand({ RoleName: ROLE_NAME }));
    expect(policyDocument(Role?.AssumeRolePolicyDocument)).toEqual(trustPolicy(setup));
    const { AttachedPolicies } = await customer.iam.send(new ListAttachedRolePoliciesCommand({ RoleName: ROLE_NAME }));
    expect(AttachedPolicies?.map((p) => p.PolicyArn).sort()).toEqual([...MANAGED_POLICIES].sort());
    const inline = await customer.iam.send(
      new GetRolePolicyCommand({ RoleName: ROLE_NAME, PolicyName: BILLING_POLICY_NAME }),
    );
    expect(policyDocument(inline.PolicyDocument)).toEqual(billingReadPolicy());
    const scanRead = await customer.iam.send(
      new GetRolePolicyCommand({ RoleName: ROLE_NAME, PolicyName: SCAN_POLICY_NAME }),
    );
    expect(policyDocument(scanRead.PolicyDocument)).toEqual(scanReadPolicy());

    await expect(provider.checkAccess(target)).resolves.toEqual({ ok: true });
  });

  it('accepts the bare account id and one-element arrays, as IAM allows', async () => {
    const customer = await customerAccount();
    const target = targetFor(customer);
    await createRole({
      customer,
      roleName: ROLE_NAME,
      trustPolicy: {
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Principal: { AWS: [MOTO_ACCOUNT_ID] },
            Action: ['sts:AssumeRole', 'sts:TagSession'],
            Condition: { StringEquals: { 'sts:ExternalId': [target.externalId] } },
          },
        ],
      },
    });

    await expect(provider.checkAccess(target)).resolves.toEqual({ ok: true });
  });

  it('reports a role that does not exist', async () => {
    const customer = await customerAccount();

    const check = await provider.checkAccess(targetFor(customer));

    expect(check).toMatchObject({ ok: false, code: 'role_missing' });
    expect(reasonOf(check)).toContain(roleArn(customer.accountId));
  });

  it('reports a role that trusts another account', async () => {
    const customer = await customerAccount();
    const target = targetFor(customer);
    await createRole({
      customer,
      roleName: ROLE_NAME,
      trustPolicy: trustPolicy({ sentinelAccountId: '111122223333', externalId: target.externalId }),
    });

    const check = await provider.checkAccess(target);

    expect(check).toMatchObject({ ok: false, code: 'trust_policy_wrong' });
    expect(reasonOf(check)).toContain(`arn:aws:iam::${MOTO_ACCOUNT_ID}:root`);
  });

  it('reports a role made for another ExternalId', async () => {
    const customer = await customerAccount();
    const target = targetFor(customer);
    await createRole({
      customer,
      roleName: ROLE_NAME,
      trustPolicy: trustPolicy({ sentinelAccountId: MOTO_ACCOUNT_ID, externalId: randomExternalId() }),
    });

    const check = await provider.checkAccess(target);

    expect(check).toMatchObject({ ok: false, code: 'external_id_mismatch' });
    expect(reasonOf(check)).toContain(target.externalId);
  });

  it('rejects a role that trusts us without requiring any ExternalId', async () => {
    const customer = await customerAccount();
    const target = targetFor(customer);
    const { Condition: _, ...unconditioned } = trustPolicy({
      sentinelAccountId: MOTO_ACCOUNT_ID,
      externalId: target.externalId,
    }).Statement[0]!;
    await createRole({
      customer,
      roleName: ROLE_NAME,
      trustPolicy: { Version: '2012-10-17', Statement: [unconditioned] },
    });

    await expect(provider.checkAccess(target)).resolves.toMatchObject({ ok: false, code: 'external_id_mismatch' });
  });

  it('throws, rather than reports, when AWS cannot be reached', async () => {
    const unreachable = createAwsProvider({
      region: REGION,
      endpointUrl: 'http://127.0.0.1:9',
      sentinelAccountId: MOTO_ACCOUNT_ID,
      credentials: TEST_CREDENTIALS,
      log,
    });

    await expect(
      unreachable.checkAccess({
        tenantId: 'tnt_test',
        awsAccountId: '210987654321',
        roleName: ROLE_NAME,
        externalId: randomExternalId(),
      }),
    ).rejects.toThrow();
  });

  it('learns its own account id from STS when none is configured', async () => {
    const unconfigured = createAwsProvider({
      region: REGION,
      endpointUrl: motoEndpoint(),
      credentials: TEST_CREDENTIALS,
      log,
    });

    await expect(unconfigured.sentinelAccountId()).resolves.toBe(MOTO_ACCOUNT_ID);
  });
});
