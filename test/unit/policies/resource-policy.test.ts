import { allows, describeStatement, policyExposure } from '../../../domain/policies/resource-policy';

const OWN = '111122223333';
const OTHER = '444455556666';
const policy = (...Statement: unknown[]) => ({ Version: '2012-10-17', Statement });

describe('resource policy exposure', () => {
  it('finds a statement open to everyone, in either form of the principal', () => {
    for (const Principal of ['*', { AWS: '*' }, { AWS: ['*'] }]) {
      const exposure = policyExposure(policy({ Effect: 'Allow', Principal, Action: 'sqs:SendMessage' }), OWN);
      expect(exposure?.public).toHaveLength(1);
    }
  });

  it('takes NotPrincipal on an Allow as everyone else', () => {
    const exposure = policyExposure(
      policy({ Effect: 'Allow', NotPrincipal: { AWS: `arn:aws:iam::${OWN}:root` }, Action: '*' }),
      OWN,
    );
    expect(exposure?.public).toHaveLength(1);
  });

  it('is not public when a known condition with a concrete value narrows who', () => {
    const narrowed = [
      { StringEquals: { 'aws:SourceAccount': OWN } },
      { ArnLike: { 'aws:SourceArn': `arn:aws:s3:::bucket` } },
      { StringEquals: { 'aws:PrincipalOrgID': 'o-abc123' } },
      { IpAddress: { 'aws:SourceIp': '203.0.113.0/24' } },
    ];
    for (const Condition of narrowed)
      expect(policyExposure(policy({ Effect: 'Allow', Principal: '*', Action: '*', Condition }), OWN)?.public).toEqual(
        [],
      );
  });

  it('stays public when the condition is a wildcard, the whole internet, a negation or unknown', () => {
    const open = [
      { StringLike: { 'aws:SourceAccount': '*' } },
      { IpAddress: { 'aws:SourceIp': '0.0.0.0/0' } },
      { StringNotEquals: { 'aws:SourceAccount': OTHER } },
      { Bool: { 'aws:SecureTransport': 'true' } },
    ];
    for (const Condition of open)
      expect(
        policyExposure(policy({ Effect: 'Allow', Principal: '*', Action: '*', Condition }), OWN)?.public,
      ).toHaveLength(1);
    const unknown = policyExposure(
      policy({
        Effect: 'Allow',
        Principal: '*',
        Action: 'sns:Publish',
        Condition: { Bool: { 'aws:SecureTransport': 'true' } },
      }),
      OWN,
    )?.public[0];
    expect(describeStatement(unknown!)).toBe(
      'A statement allows sns:Publish (under condition keys Sentinel does not judge: aws:securetransport)',
    );
  });

  it('names other accounts, not its own, nor services, and ignores Deny statements', () => {
    const exposure = policyExposure(
      policy(
        {
          Effect: 'Allow',
          Principal: { AWS: [`arn:aws:iam::${OTHER}:root`, `arn:aws:iam::${OWN}:role/app`] },
          Action: '*',
        },
        { Effect: 'Allow', Principal: { AWS: OTHER }, Action: 'kms:Decrypt' },
        { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sqs:SendMessage' },
        { Effect: 'Deny', Principal: '*', Action: '*' },
      ),
      OWN,
    );
    expect(exposure?.public).toEqual([]);
    expect(exposure?.external.map((e) => e.account)).toEqual([OTHER, OTHER]);
  });

  it('reads the JSON text and its URL-encoded form; anything else is no policy', () => {
    const text = JSON.stringify(policy({ Effect: 'Allow', Principal: '*', Action: 's3:GetObject' }));
    expect(policyExposure(text, OWN)?.public).toHaveLength(1);
    expect(policyExposure(encodeURIComponent(text), OWN)?.public).toHaveLength(1);
    expect(policyExposure('not a policy', OWN)).toBeUndefined();
  });

  it('says which actions a statement allows, wildcards, case and NotAction included', () => {
    const [write] = policyExposure(policy({ Effect: 'Allow', Principal: '*', Action: ['S3:Put*'] }), OWN)!.public;
    expect(allows(write!, 's3:PutObject')).toBe(true);
    expect(allows(write!, 's3:GetObject')).toBe(false);
    const [most] = policyExposure(policy({ Effect: 'Allow', Principal: '*', NotAction: 's3:Delete*' }), OWN)!.public;
    expect(allows(most!, 's3:PutObject')).toBe(true);
    expect(allows(most!, 's3:DeleteObject')).toBe(false);
  });
});
