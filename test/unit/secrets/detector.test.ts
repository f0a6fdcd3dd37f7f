import {
  describeSecrets,
  entropy,
  findInSettings,
  findInText,
  type SecretKind,
} from '../../../domain/secrets/detector';

// Fake credentials of each documented shape, assembled at run time so that the repository itself holds none a
// secret scanner would flag. A random-looking body of the given length and alphabet, fixed by a seed.
function body(length: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
  let seed = length * 7919;
  let out = '';
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    out += alphabet[(seed >>> 16) % alphabet.length];
  }
  return out;
}
const UPPER32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

const SHAPES: [SecretKind, string][] = [
  ['aws_access_key_id', `AK${'IA'}${body(16, UPPER32)}`],
  ['private_key', `-----BEGIN RSA ${'PRIVATE'} KEY-----`],
  ['github_token', `gh${'p_'}${body(36)}`],
  ['gitlab_token', `gl${'pat-'}${body(20)}`],
  ['slack_token', `xo${'xb-'}${body(24)}`],
  ['slack_webhook', `https://hooks.slack.com/services/T${body(8, UPPER32)}/B${body(8, UPPER32)}/${body(24)}`],
  ['stripe_key', `sk${'_live_'}${body(24)}`],
  ['google_api_key', `AI${'za'}${body(35)}`],
  ['anthropic_key', `sk${'-ant-'}api03-${body(40)}`],
  ['npm_token', `np${'m_'}${body(36)}`],
  ['sendgrid_key', `S${'G.'}${body(22)}.${body(43)}`],
  ['twilio_key', `S${'K'}${body(32, '0123456789abcdef')}`],
  ['json_web_token', `ey${'J'}${body(20)}.eyJ${body(30)}.${body(20)}`],
  ['password_in_url', `postgres://app:${body(12)}@db.internal:5432/app`],
];

describe('secret detector', () => {
  it.each(SHAPES)('finds %s by its shape, in any setting name', (kind, value) => {
    expect(findInSettings([['SOMETHING', value]]).map((f) => f.kind)).toContain(kind);
    expect(findInText(`#!/bin/bash\necho start\nX=${value}\n`)).toContainEqual({ line: 3, kind });
  });

  it('finds an AWS secret access key written next to its name', () => {
    const text = `[default]\naws_access_key_id = AK${'IA'}${body(16, UPPER32)}\naws_secret_access_key = ${body(40, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/+')}\n`;
    expect(findInText(text)).toEqual([
      { line: 2, kind: 'aws_access_key_id' },
      { line: 3, kind: 'aws_secret_access_key' },
    ]);
  });

  it('finds a value under a secret-named setting, but not references, placeholders or short flags', () => {
    const found = findInSettings([
      ['DB_PASSWORD', 'Tr0ub4dor&3x'],
      ['API_KEY', 'k3y-for-the-partner'],
      ['CLIENT_SECRET', 'arn:aws:secretsmanager:us-east-1:111122223333:secret:app-AbCdEf'],
      ['TOKEN_PARAM', '{{resolve:ssm-secure:/app/token}}'],
      ['SECRET', '${SECRET_FROM_CI}'],
      ['PASSWORD', 'changeme'],
      ['USE_TOKEN', 'true'],
      ['ACCESS_KEY_ID_PARAM', '/app/key'],
    ]);
    expect(found).toEqual([
      { name: 'DB_PASSWORD', kind: 'named_secret' },
      { name: 'API_KEY', kind: 'named_secret' },
    ]);
  });

  it('finds long random strings anywhere, but not ARNs, UUIDs, digests, paths or words', () => {
    expect(
      findInSettings([
        ['SIGNATURE_SEED', body(40, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/')],
      ]),
    ).toEqual([{ name: 'SIGNATURE_SEED', kind: 'high_entropy_string' }]);
    const benign = findInSettings([
      ['QUEUE', 'arn:aws:sqs:us-east-1:111122223333:orders-processing-queue-2024'],
      ['REQUEST_ID', '3f2b8c4e-9a1d-4e6f-8b7c-2d5e9f0a1b3c'],
      ['IMAGE', `123456789012.dkr.ecr.us-east-1.amazonaws.com/app@sha256:${body(64, '0123456789abcdef')}`],
      ['CONTENT_HASH', body(64, '0123456789abcdef')],
      ['HANDLER_PATH', 'src/handlers/processIncomingOrderEvents.handler'],
      ['LOG_LEVEL', 'debug'],
      ['REGION', 'eu-west-1'],
    ]);
    expect(benign).toEqual([]);
  });

  it('names the line, never the value, and stops at the limit', () => {
    const key = `AK${'IA'}${body(16, UPPER32)}`;
    const found = findInText(Array.from({ length: 50 }, () => `key=${key}`).join('\n'), 3);
    expect(found).toHaveLength(3);
    const detail = describeSecrets('User data of instance i-0abc', found);
    expect(detail).toBe(
      'User data of instance i-0abc holds an AWS access key id on line 1; an AWS access key id on line 2; an AWS access key id on line 3.',
    );
    expect(detail).not.toContain(key);
    expect(describeSecrets('Function f', findInSettings([['DB_PASSWORD', 'Tr0ub4dor&3x']]))).toBe(
      'Function f holds a value assigned to a secret-named setting in DB_PASSWORD.',
    );
  });

  it('measures entropy in bits per character', () => {
    expect(entropy('aaaa')).toBe(0);
    expect(entropy('abcd')).toBe(2);
  });
});
