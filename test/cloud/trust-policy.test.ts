import { evaluateTrustPolicy, parsePolicyDocument } from '../../cloud/aws/trust-policy';
import { trustPolicy } from '../../domain/onboarding/role';

const sentinelAccountId = '123456789012';
const externalId = 'ours-0123456789';
const verdict = (document: unknown) =>
  evaluateTrustPolicy({ document: document as Record<string, unknown>, sentinelAccountId, externalId });
const statement = (overrides: Record<string, unknown>) => ({
  Version: '2012-10-17',
  Statement: [{ ...trustPolicy({ sentinelAccountId, externalId }).Statement[0], ...overrides }],
});

describe('evaluateTrustPolicy', () => {
  it('accepts the policy the onboarding snippet writes, URL-encoded as IAM returns it', () => {
    const raw = encodeURIComponent(JSON.stringify(trustPolicy({ sentinelAccountId, externalId })));
    expect(verdict(parsePolicyDocument(raw))).toBe('ok');
  });

  it('accepts a single statement object, wildcard actions and a lower-case condition key', () => {
    const policy = statement({ Action: 'sts:Assume*', Condition: { StringEquals: { 'sts:externalid': externalId } } });
    expect(verdict({ ...policy, Statement: policy.Statement[0] })).toBe('ok');
  });

  it('does not count Deny statements or other principals as trusting us', () => {
    expect(verdict(statement({ Effect: 'Deny' }))).toBe('trust_policy_wrong');
    expect(verdict(statement({ Principal: '*' }))).toBe('trust_policy_wrong');
    expect(verdict(statement({ Principal: { AWS: 'arn:aws:iam::123456789012:role/someone' } }))).toBe(
      'trust_policy_wrong',
    );
    expect(verdict(statement({ Action: 'sts:TagSession' }))).toBe('trust_policy_wrong');
    expect(verdict(parsePolicyDocument('not json'))).toBe('trust_policy_wrong');
  });

  it('requires our ExternalId alone on every statement that trusts us', () => {
    expect(
      verdict(statement({ Condition: { StringEquals: { 'sts:ExternalId': [externalId, 'another-tenant'] } } })),
    ).toBe('external_id_mismatch');
    expect(verdict(statement({ Condition: { StringLike: { 'sts:ExternalId': externalId } } }))).toBe(
      'external_id_mismatch',
    );
    const [ours] = statement({}).Statement;
    const open = { ...ours, Condition: undefined };
    expect(verdict({ Version: '2012-10-17', Statement: [ours, open] })).toBe('external_id_mismatch');
  });
});
