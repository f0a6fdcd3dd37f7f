import jwt from 'jsonwebtoken';
import {
  createTestContext,
  signupAndLogin,
  TEST_JWT_SECRET,
  type TestContext,
  type TestUser,
} from '../helpers/context';

let ctx: TestContext;
let owner: TestUser;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signupAndLogin(ctx, 'Olive Owner');
});
afterAll(() => ctx.close());

describe('GET /me', () => {
  it('returns the caller and the tenant as the spec shows', async () => {
    const res = await ctx.http.get('/me').set(owner.auth).expect(200);
    expect(res.body).toEqual({
      user: {
        user_id: owner.userId,
        email: owner.email,
        name: 'Olive Owner',
        role: 'owner',
        created_at: expect.any(String),
        email_verified: true,
      },
      tenant: {
        tenant_id: owner.tenantId,
        name: 'Olive Owner',
        plan: 'solo',
        status: 'active',
        created_at: expect.any(String),
      },
    });
    expect(new Date(res.body.user.created_at).toISOString()).toBe(res.body.user.created_at);
  });
});

describe('PATCH /me', () => {
  it('renames the caller', async () => {
    const res = await ctx.http.patch('/me').set(owner.auth).send({ name: 'Olivia' }).expect(200);
    expect(res.body).toEqual({ name: 'Olivia' });
    const me = await ctx.http.get('/me').set(owner.auth).expect(200);
    expect(me.body.user.name).toBe('Olivia');
  });

  it.each([
    ['an empty name', { name: '' }],
    ['a 201-character name', { name: 'x'.repeat(201) }],
    ['a missing name', {}],
    ['a non-string name', { name: 42 }],
    ['an unknown field', { name: 'Ok', role: 'admin' }],
  ])('rejects %s with 400 and changes nothing', async (_label, body) => {
    const before = await ctx.http.get('/me').set(owner.auth).expect(200);
    const res = await ctx.http.patch('/me').set(owner.auth).send(body).expect(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
    const after = await ctx.http.get('/me').set(owner.auth).expect(200);
    expect(after.body.user).toEqual(before.body.user);
  });
});

describe('bearer authentication', () => {
  const sign = (claims: object, options: jwt.SignOptions = {}, secret = TEST_JWT_SECRET) =>
    jwt.sign(claims, secret, { issuer: 'sentinel', audience: 'sentinel-api', expiresIn: 3600, ...options });

  it.each([
    ['no Authorization header', () => undefined],
    ['a non-Bearer scheme', () => `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['a malformed token', () => 'Bearer not-a-jwt'],
    [
      'an expired token',
      () => `Bearer ${sign({ tid: owner.tenantId, token_use: 'id' }, { subject: owner.userId, expiresIn: -10 })}`,
    ],
    [
      'a token signed with another key',
      () => `Bearer ${sign({ tid: owner.tenantId, token_use: 'id' }, { subject: owner.userId }, 'x'.repeat(40))}`,
    ],
    [
      'a token with another issuer',
      () => `Bearer ${sign({ tid: owner.tenantId, token_use: 'id' }, { subject: owner.userId, issuer: 'evil' })}`,
    ],
    [
      'an alg:none token',
      () => {
        const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
        const now = Math.floor(Date.now() / 1000);
        const payload = Buffer.from(
          JSON.stringify({
            sub: owner.userId,
            tid: owner.tenantId,
            token_use: 'id',
            iss: 'sentinel',
            aud: 'sentinel-api',
            iat: now,
            exp: now + 600,
          }),
        ).toString('base64url');
        return `Bearer ${header}.${payload}.`;
      },
    ],
    [
      'a tampered token',
      () => {
        const [h, p, s] = owner.idToken.split('.');
        const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
        const forged = Buffer.from(JSON.stringify({ ...claims, tid: 'ten_someone_else' })).toString('base64url');
        return `Bearer ${h}.${forged}.${s}`;
      },
    ],
    [
      'a token for a user that no longer exists',
      () => `Bearer ${sign({ tid: owner.tenantId, token_use: 'id' }, { subject: 'usr_gone' })}`,
    ],
  ])('rejects %s with 401', async (_label, header) => {
    const value = header();
    const req = ctx.http.get('/me');
    if (value) req.set('Authorization', value);
    const res = await req.expect(401);
    expect(res.body).toEqual({ error: expect.any(String), code: 'unauthorized' });
  });

  it('refuses the access_token as a bearer credential: only the id_token is accepted', async () => {
    const login = await ctx.http.post('/auth/login').send({ email: owner.email, password: owner.password }).expect(200);
    await ctx.http.get('/me').set('Authorization', `Bearer ${login.body.access_token}`).expect(401);
    await ctx.http.get('/me').set('Authorization', `Bearer ${login.body.id_token}`).expect(200);
  });
});
