import { allowsEverything, grantsAdministrator } from '../../cloud/aws/collectors/iam-policies';

const policy = (...statements: Record<string, unknown>[]) =>
  JSON.stringify({ Version: '2012-10-17', Statement: statements });
const allow = (extra: Record<string, unknown>) => ({ Effect: 'Allow', Resource: '*', ...extra });

describe('grantsAdministrator', () => {
  it.each([
    ['everything', allow({ Action: '*' })],
    ['*:*', allow({ Action: '*:*' })],
    ['every IAM action (it can grant itself the rest)', allow({ Action: ['s3:GetObject', 'iam:*'] })],
    ['every IAM action, in any case', allow({ Action: 'IAM:*' })],
    ['everything but a bucket deletion (NotAction leaving IAM in)', allow({ NotAction: ['s3:DeleteBucket'] })],
    ['everything but one IAM action', allow({ NotAction: 'iam:DeleteUser' })],
    ['a Resource list holding *', allow({ Action: '*', Resource: ['arn:aws:s3:::x', '*'] })],
  ])('counts %s', (_, statement) => {
    expect(grantsAdministrator(policy(statement))).toBe(true);
  });

  it.each([
    [
      'PowerUserAccess (everything but IAM, Organizations and Account)',
      allow({ NotAction: ['iam:*', 'organizations:*', 'account:*'] }),
    ],
    ['a NotAction of everything', allow({ NotAction: '*' })],
    ['a Deny of everything', { Effect: 'Deny', Action: '*', Resource: '*' }],
    ['everything on one bucket', allow({ Action: '*', Resource: 'arn:aws:s3:::x' })],
    ['every S3 action', allow({ Action: 's3:*' })],
    ['a few IAM reads', allow({ Action: ['iam:Get*', 'iam:List*'] })],
    ['an unparsable document', null],
  ])('does not count %s', (_, statement) => {
    expect(grantsAdministrator(statement ? policy(statement) : '{not json')).toBe(false);
  });

  it('reads the URL-encoded documents IAM answers', () => {
    expect(grantsAdministrator(encodeURIComponent(policy(allow({ Action: '*' }))))).toBe(true);
  });
});

describe('allowsEverything (CIS 2.14: full "*:*" administrative privileges)', () => {
  it.each([
    ['Action * on Resource *', allow({ Action: '*' })],
    ['Action *:*', allow({ Action: '*:*' })],
    [
      '* among other actions and resources',
      allow({ Action: ['s3:GetObject', '*'], Resource: ['arn:aws:s3:::x', '*'] }),
    ],
    [
      'a condition (not weighed)',
      allow({ Action: '*', Condition: { Bool: { 'aws:MultiFactorAuthPresent': 'true' } } }),
    ],
  ])('counts %s', (_, statement) => {
    expect(allowsEverything(policy(statement))).toBe(true);
    expect(allowsEverything(encodeURIComponent(policy(statement)))).toBe(true);
  });

  it.each([
    // Administrator access all the same, which iam.user_admin_access and iam.role_admin_access report.
    ['every IAM action', allow({ Action: 'iam:*' })],
    ['everything but a bucket deletion', allow({ NotAction: 's3:DeleteBucket' })],
    ['everything on one bucket', allow({ Action: '*', Resource: 'arn:aws:s3:::x' })],
    ['a Deny of everything', { Effect: 'Deny', Action: '*', Resource: '*' }],
    ['an unparsable document', null],
  ])('does not count %s', (_, statement) => {
    expect(allowsEverything(statement ? policy(statement) : '{not json')).toBe(false);
  });
});
