import jwt from 'jsonwebtoken';
import { signTokens, verifyIdToken } from '../../core/identity/tokens';
import { testConfig } from '../helpers/context';

// verifyIdToken keeps the tokens it verified, per configuration: a kept token must still expire on time and must
// never pass under another configuration's secret.

const user = { id: 'usr_1', tenant_id: 'ten_1', email: 'a@example.com', name: 'A' };

afterEach(() => jest.useRealTimers());

describe('verifyIdToken', () => {
  it('answers the same claims for a token it verified before, until the token expires', () => {
    jest.useFakeTimers({ now: new Date('2026-11-25T10:00:00Z'), doNotFake: ['nextTick', 'setImmediate'] });
    const config = testConfig();
    const { id_token: token } = signTokens(config, user, 'ses_1');
    const first = verifyIdToken(config, token);
    expect(first).toMatchObject({ sub: 'usr_1', tid: 'ten_1' });
    expect(verifyIdToken(config, token)).toBe(first);

    jest.setSystemTime(new Date(Date.now() + config.auth.idTokenTtlSeconds * 1000 - 1_000));
    expect(verifyIdToken(config, token)).toBe(first);
    jest.setSystemTime(new Date(Date.now() + 1_000));
    expect(verifyIdToken(config, token)).toBeNull();
    expect(verifyIdToken(config, token)).toBeNull();
  });

  it('does not carry a verified token over to a configuration with another secret', () => {
    const config = testConfig();
    const other = testConfig({ JWT_SECRET: 'another-secret-that-is-at-least-32-characters' });
    const { id_token: token } = signTokens(config, user, 'ses_1');
    expect(verifyIdToken(config, token)).not.toBeNull();
    expect(verifyIdToken(other, token)).toBeNull();
  });

  it('refuses an access token, a tampered token and one signed with another secret, however often asked', () => {
    const config = testConfig();
    const { id_token: idToken, access_token: accessToken } = signTokens(config, user, 'ses_1');
    const [header, , signature] = idToken.split('.');
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...(jwt.decode(idToken) as object), tid: 'ten_2' })).toString('base64url')}.${signature}`;
    const forged = jwt.sign({ tid: 'ten_1', token_use: 'id' }, 'not-the-secret-but-long-enough-32-chars', {
      subject: 'usr_1',
      issuer: 'sentinel',
      audience: 'sentinel-api',
    });
    for (let i = 0; i < 2; i++) {
      expect(verifyIdToken(config, accessToken)).toBeNull();
      expect(verifyIdToken(config, tampered)).toBeNull();
      expect(verifyIdToken(config, forged)).toBeNull();
    }
  });
});
