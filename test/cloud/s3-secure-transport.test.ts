import { deniesInsecureTransport } from '../../cloud/aws/collectors/s3-secure-transport';

const BUCKET = 'acme-data';
const policy = (...statements: Record<string, unknown>[]) =>
  JSON.stringify({ Version: '2012-10-17', Statement: statements });
const deny = (extra: Record<string, unknown> = {}) => ({
  Effect: 'Deny',
  Principal: '*',
  Action: 's3:*',
  Resource: [`arn:aws:s3:::${BUCKET}`, `arn:aws:s3:::${BUCKET}/*`],
  Condition: { Bool: { 'aws:SecureTransport': 'false' } },
  ...extra,
});

describe('deniesInsecureTransport', () => {
  it.each([
    ['the documented statement', deny()],
    ['Principal {"AWS": "*"}', deny({ Principal: { AWS: ['*'] } })],
    ['every action', deny({ Action: '*' })],
    ['object reads and writes, named', deny({ Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'] })],
    ['Get* and Put*, in any case', deny({ Action: ['S3:get*', 's3:Put*'] })],
    ['a wildcard resource', deny({ Resource: '*' })],
    ['a bucket-name wildcard', deny({ Resource: 'arn:aws:s3:::acme-*' })],
    ['another partition', deny({ Resource: `arn:aws-cn:s3:::${BUCKET}/*` })],
    [
      'BoolIfExists, a boolean, a list, a key in another case',
      deny({ Condition: { BoolIfExists: { 'AWS:SecureTransport': [false] } } }),
    ],
    ['a single statement object', deny()],
    // CIS 3.1.1 accepts a denial of TLS below 1.2 (or a later version) as well.
    ['s3:TlsVersion below 1.2', deny({ Condition: { NumericLessThan: { 's3:TlsVersion': '1.2' } } })],
    ['s3:TlsVersion below 1.3, as a number', deny({ Condition: { NumericLessThan: { 'S3:TLSVersion': 1.3 } } })],
    [
      'NumericLessThanIfExists on s3:TlsVersion',
      deny({ Condition: { NumericLessThanIfExists: { 's3:TlsVersion': ['1.2'] } } }),
    ],
  ])('counts %s', (_, statement) => {
    expect(deniesInsecureTransport(policy(statement), BUCKET)).toBe(true);
    expect(deniesInsecureTransport(JSON.stringify({ Statement: statement }), BUCKET)).toBe(true);
  });

  it('finds the statement among others', () => {
    const allow = {
      Effect: 'Allow',
      Principal: { AWS: 'arn:aws:iam::111122223333:root' },
      Action: 's3:GetObject',
      Resource: `arn:aws:s3:::${BUCKET}/*`,
    };
    expect(deniesInsecureTransport(policy(allow, deny()), BUCKET)).toBe(true);
  });

  it.each([
    ['an Allow', deny({ Effect: 'Allow' })],
    ['aws:SecureTransport true', deny({ Condition: { Bool: { 'aws:SecureTransport': 'true' } } })],
    ['no condition (it would deny everything)', deny({ Condition: undefined })],
    [
      'a further condition that narrows it',
      deny({
        Condition: { Bool: { 'aws:SecureTransport': 'false' }, StringNotEquals: { 'aws:SourceVpce': 'vpce-1' } },
      }),
    ],
    [
      'another key under Bool',
      deny({ Condition: { Bool: { 'aws:SecureTransport': 'false', 'aws:ViaAWSService': 'false' } } }),
    ],
    ['one principal only', deny({ Principal: { AWS: 'arn:aws:iam::111122223333:user/bob' } })],
    ['a NotPrincipal', deny({ Principal: undefined, NotPrincipal: { AWS: 'arn:aws:iam::111122223333:root' } })],
    ['writes only', deny({ Action: 's3:PutObject' })],
    ['reads of the bucket, not its objects', deny({ Action: ['s3:ListBucket', 's3:GetBucketPolicy'] })],
    ['a NotAction', deny({ Action: undefined, NotAction: 's3:GetObject' })],
    ['the bucket, not its objects', deny({ Resource: `arn:aws:s3:::${BUCKET}` })],
    ['one prefix of the objects', deny({ Resource: `arn:aws:s3:::${BUCKET}/private/*` })],
    ['another bucket', deny({ Resource: 'arn:aws:s3:::other-bucket/*' })],
    [
      's3:TlsVersion below 1.1 (TLS 1.1 still taken)',
      deny({ Condition: { NumericLessThan: { 's3:TlsVersion': '1.1' } } }),
    ],
    ['s3:TlsVersion above 1.2 denied', deny({ Condition: { NumericGreaterThan: { 's3:TlsVersion': '1.2' } } })],
    ['another key, below 1.2', deny({ Condition: { NumericLessThan: { 's3:signatureversion': '1.2' } } })],
    ['s3:TlsVersion, not a number', deny({ Condition: { NumericLessThan: { 's3:TlsVersion': 'TLSv1.2' } } })],
    [
      's3:TlsVersion with a further condition',
      deny({
        Condition: { NumericLessThan: { 's3:TlsVersion': '1.2' }, StringNotEquals: { 'aws:SourceVpce': 'vpce-1' } },
      }),
    ],
  ])('does not count %s', (_, statement) => {
    expect(deniesInsecureTransport(policy(statement), BUCKET)).toBe(false);
  });

  it('is false without a policy, or with one it cannot parse', () => {
    expect(deniesInsecureTransport(undefined, BUCKET)).toBe(false);
    expect(deniesInsecureTransport('{not json', BUCKET)).toBe(false);
  });
});
