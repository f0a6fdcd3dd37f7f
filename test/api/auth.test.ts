import jwt from 'jsonwebtoken';
import request from 'supertest';
import { createApp } from '../../api/app';
import { createDb } from '../../db/client';
import { createTestContext, signupAndLogin, TEST_JWT_SECRET, type TestContext } from '../helpers/context';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('POST /auth/signup', () => {
  it('creates a tenant on the solo plan and its owner, in one transaction', async () => {
    const res = await ctx.http
      .post('/auth/signup')
      .send({ email: 'Alice@Example.com', password: 'password123', name: 'Alice' })
      .expect(201);
    expect(res.body).toEqual({
      tenant_id: expect.stringMatching(/^ten_/),
      user_id: expect.stringMatching(/^usr_/),
      message: expect.any(String),
    });
    const tenant = await ctx.db
      .selectFrom('tenants')
      .selectAll()
      .where('id', '=', res.body.tenant_id)
      .executeTakeFirstOrThrow();
    expect(tenant).toMatchObject({ plan: 'solo', status: 'active' });
    const user = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', res.body.user_id)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ tenant_id: tenant.id, email: 'alice@example.com', role: 'owner', name: 'Alice' });
    expect(user.password_hash).toMatch(/^scrypt\$/);
    expect(user.password_hash).not.toContain('password123');
  });

  it('rejects a duplicate e-mail (any case) with 409 and writes nothing', async () => {
    await ctx.http
      .post('/auth/signup')
      .send({ email: 'dup@example.com', password: 'password123', name: 'Dup' })
      .expect(201);
    const tenantsBefore = await ctx.db.selectFrom('tenants').select('id').execute();
    const res = await ctx.http
      .post('/auth/signup')
      .send({ email: 'DUP@example.com', password: 'password456', name: 'Dup 2' })
      .expect(409);
    expect(res.body).toEqual({ error: expect.any(String), code: 'email_taken' });
    const tenantsAfter = await ctx.db.selectFrom('tenants').select('id').execute();
    expect(tenantsAfter).toHaveLength(tenantsBefore.length);
  });

  it.each([
    ['a short password', { email: 'a@example.com', password: 'short', name: 'A' }, 'password'],
    ['a malformed e-mail', { email: 'not-an-email', password: 'password123', name: 'A' }, 'email'],
    ['an empty name', { email: 'a@example.com', password: 'password123', name: '' }, 'name'],
    ['a 201-character name', { email: 'a@example.com', password: 'password123', name: 'x'.repeat(201) }, 'name'],
    ['a missing password', { email: 'a@example.com', name: 'A' }, 'password'],
    ['an unknown field', { email: 'a@example.com', password: 'password123', name: 'A', role: 'owner' }, 'role'],
  ])('rejects %s with 400 naming the field', async (_label, body, field) => {
    const res = await ctx.http.post('/auth/signup').send(body).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toContain(field);
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  });

  it('accepts a 200-character name', async () => {
    await ctx.http
      .post('/auth/signup')
      .send({ email: 'long@example.com', password: 'password123', name: 'x'.repeat(200) })
      .expect(201);
  });
});

describe('POST /auth/signup from one client address', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({ config: { SIGNUPS_PER_CLIENT_PER_HOUR: '10' } });
    limited.app.set('trust proxy', true);
  });
  afterAll(() => limited.close());

  it('allows 10 sign-ups per address per hour (REST and tRPC together, failed ones too), then 429 creating nothing', async () => {
    const from = (address: string, i: number) =>
      limited.http
        .post('/auth/signup')
        .set('X-Forwarded-For', address)
        .send({ email: `flood-${i}@example.com`, password: 'password123', name: 'Flood' });
    for (let i = 0; i < 7; i++) await from('203.0.113.9', i).expect(201);
    await from('203.0.113.9', 0).expect(409); // taken: it counts too
    const viaTrpc = (i: number) => ({ email: `flood-${i}@example.com`, password: 'password123', name: 'Flood' });
    await limited.http
      .post('/trpc/auth.signup,auth.signup')
      .query({ batch: '1' })
      .set('X-Forwarded-For', '203.0.113.9')
      .send({ 0: viaTrpc(7), 1: viaTrpc(8) })
      .expect(200);

    const refused = await from('203.0.113.9', 9).expect(429);
    expect(refused.body).toEqual({ error: 'At most 10 sign-ups per client address per hour', code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    const tenants = await limited.db
      .selectFrom('tenants')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(tenants.n)).toBe(9);
    // Another address is not affected.
    await from('203.0.113.10', 9).expect(201);
  });

  it('counts every address of an IPv6 /64 as one client: of 14 sign-ups from one /64, the 11th is refused', async () => {
    const from = (address: string, i: number) =>
      limited.http
        .post('/auth/signup')
        .set('X-Forwarded-For', address)
        .send({ email: `v6-${i}@example.com`, password: 'password123', name: 'Six' });
    const answers: number[] = [];
    for (let i = 1; i <= 14; i++) answers.push((await from(`2001:db8:5:6::${i.toString(16)}`, i)).status);
    expect(answers).toEqual([...Array<number>(10).fill(201), ...Array<number>(4).fill(429)]);
    // The next /64 is another client.
    await from('2001:db8:5:7::1', 15).expect(201);
  });

  it('holds across two API instances with pools of their own, racing: exactly 10 of 14 sign-ups pass', async () => {
    const secondDb = createDb({ url: limited.config.database.url, maxConnections: 5 });
    try {
      const apps = [limited.app, createApp({ ...limited, db: secondDb })];
      for (const app of apps) app.set('trust proxy', true);
      const answers = await Promise.all(
        Array.from({ length: 14 }, (_, i) =>
          request(apps[i % 2]!)
            .post('/auth/signup')
            .set('X-Forwarded-For', '203.0.113.11')
            .send({ email: `race-${i}@example.com`, password: 'password123', name: 'Race' }),
        ),
      );
      expect(answers.filter((r) => r.status === 201)).toHaveLength(10);
      expect(answers.filter((r) => r.status === 429)).toHaveLength(4);
    } finally {
      await secondDb.destroy();
    }
  });
});

describe('POST /auth/login', () => {
  it('returns the token set of the spec', async () => {
    await ctx.http
      .post('/auth/signup')
      .send({ email: 'login@example.com', password: 'password123', name: 'Lou' })
      .expect(201);
    const res = await ctx.http
      .post('/auth/login')
      .send({ email: 'login@example.com', password: 'password123' })
      .expect(200);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      id_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 3600,
      token_type: 'Bearer',
    });
    const claims = jwt.verify(res.body.id_token, TEST_JWT_SECRET) as jwt.JwtPayload;
    expect(claims.exp! - claims.iat!).toBe(3600);
    // Tokens are kept by no browser cache or proxy, on REST and on tRPC.
    expect(res.headers['cache-control']).toBe('no-store');
    const viaTrpc = await ctx.http
      .post('/trpc/auth.login')
      .send({ email: 'login@example.com', password: 'password123' })
      .expect(200);
    expect([viaTrpc.body.result.data.token_type, viaTrpc.headers['cache-control']]).toEqual(['Bearer', 'no-store']);
  });

  it('answers a wrong password and an unknown e-mail identically', async () => {
    await ctx.http
      .post('/auth/signup')
      .send({ email: 'same@example.com', password: 'password123', name: 'Sam' })
      .expect(201);
    const wrongPassword = await ctx.http
      .post('/auth/login')
      .send({ email: 'same@example.com', password: 'nope-nope' })
      .expect(401);
    const unknownEmail = await ctx.http
      .post('/auth/login')
      .send({ email: 'nobody@example.com', password: 'nope-nope' })
      .expect(401);
    expect(wrongPassword.body).toEqual(unknownEmail.body);
    expect(wrongPassword.body.code).toBe('invalid_credentials');
  });

  /** Runs `attempts` with the app trusting X-Forwarded-For, so each request can come from an address of its own. */
  async function fromAddresses(attempts: () => Promise<void>) {
    ctx.app.set('trust proxy', true);
    try {
      await attempts();
    } finally {
      ctx.app.set('trust proxy', ctx.config.http.trustProxy);
    }
  }
  const loginFrom = (address: string, email: string, password: string) =>
    ctx.http.post('/auth/login').set('X-Forwarded-For', address).send({ email, password });

  it('rate limits repeated failures for an e-mail from one address with 429 and Retry-After, even for the right password', async () => {
    await ctx.http
      .post('/auth/signup')
      .send({ email: 'brute@example.com', password: 'password123', name: 'Bru' })
      .expect(201);
    await fromAddresses(async () => {
      for (let i = 0; i < 5; i++) await loginFrom('198.51.100.1', 'brute@example.com', `wrong-${i}-pass`).expect(401);
      const limited = await loginFrom('198.51.100.1', 'brute@example.com', 'password123').expect(429);
      expect(limited.body.code).toBe('rate_limited');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(900);
      // The owner, from an address of their own, is not locked out by those failures.
      await loginFrom('198.51.100.2', 'brute@example.com', 'password123').expect(200);
    });
  });

  it('refuses guesses for one account spread over many /64s past 10, the right password too, but never the owner at an address they signed in from', async () => {
    const email = 'spread@example.com';
    await ctx.http.post('/auth/signup').send({ email, password: 'password123', name: 'Spread' }).expect(201);
    await fromAddresses(async () => {
      await loginFrom('192.0.2.20', email, 'password123').expect(200);
      // 40 guesses, each from a /64 of its own: 10 are checked, then every address new to the account is refused,
      // until the 15 minutes are over; past 30 in the day (refused ones count too), until the day is.
      const answers: { status: number; wait: string }[] = [];
      for (let i = 1; i <= 40; i++) {
        const res = await loginFrom(`2001:db8:b:${i.toString(16)}::1`, email, `wrong-${i}-pass`);
        const wait = Number(res.headers['retry-after'] ?? 0);
        answers.push({ status: res.status, wait: wait === 0 ? 'none' : wait <= 900 ? 'minutes' : 'a day' });
      }
      expect(answers).toEqual([
        ...Array(10).fill({ status: 401, wait: 'none' }),
        ...Array(20).fill({ status: 429, wait: 'minutes' }),
        ...Array(10).fill({ status: 429, wait: 'a day' }),
      ]);
      await loginFrom('2001:db8:c:1::1', email, 'password123').expect(429);
      // The owner, from the address they signed in from (as a dual-stack socket shows it, too), again and again.
      for (const owner of ['192.0.2.20', '::ffff:192.0.2.20', '192.0.2.20'])
        await loginFrom(owner, email, 'password123').expect(200);
    });
  });

  it('counts every address of an IPv6 /64 as one client: guesses from one /64 are refused after 5, the right password too', async () => {
    const email = 'subnet@example.com';
    await ctx.http.post('/auth/signup').send({ email, password: 'password123', name: 'Subnet' }).expect(201);
    await fromAddresses(async () => {
      await loginFrom('2001:db8:f:1::10', email, 'password123').expect(200);
      const answers: number[] = [];
      for (let i = 1; i <= 40; i++)
        answers.push((await loginFrom(`2001:db8:a:1::${i.toString(16)}`, email, `wrong-${i}-pass`)).status);
      expect(answers).toEqual([...Array<number>(5).fill(401), ...Array<number>(35).fill(429)]);
      await loginFrom('2001:db8:a:1::ffff', email, 'password123').expect(429);
      // The owner's /64 signed in before: any address of it still gets in.
      await loginFrom('2001:db8:f:1::abcd', email, 'password123').expect(200);
    });
  });

  it('rate limits failures per client address across e-mails', async () => {
    const client = '203.0.113.77';
    ctx.app.set('trust proxy', true);
    try {
      for (let i = 0; i < 20; i++) {
        await ctx.http
          .post('/auth/login')
          .set('X-Forwarded-For', client)
          .send({ email: `spray${i}@example.com`, password: 'password123' })
          .expect(401);
      }
      const res = await ctx.http
        .post('/auth/login')
        .set('X-Forwarded-For', client)
        .send({ email: 'another@example.com', password: 'password123' });
      expect(res.status).toBe(429);
      // Another client address is not affected.
      await ctx.http
        .post('/auth/login')
        .set('X-Forwarded-For', '203.0.113.78')
        .send({ email: 'another@example.com', password: 'password123' })
        .expect(401);
    } finally {
      ctx.app.set('trust proxy', ctx.config.http.trustProxy);
    }
  });

  it('keeps the counters in PostgreSQL, shared by every API instance', async () => {
    const rows = await ctx.db.selectFrom('rate_limits').select('key').execute();
    expect(rows.some((r) => r.key.startsWith('login:account:'))).toBe(true);
    expect(rows.some((r) => r.key.startsWith('login:client:'))).toBe(true);
  });

  it('rejects a body without a password with 400', async () => {
    const res = await ctx.http.post('/auth/login').send({ email: 'x@example.com' }).expect(400);
    expect(res.body.code).toBe('validation_failed');
  });
});

describe('POST /auth/refresh', () => {
  it('exchanges a refresh token for a new token set, once', async () => {
    const user = await signupAndLogin(ctx);
    const res = await ctx.http.post('/auth/refresh').send({ refresh_token: user.refreshToken }).expect(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(res.body.refresh_token).not.toBe(user.refreshToken);
    expect(res.headers['cache-control']).toBe('no-store');
    await ctx.http.get('/me').set('Authorization', `Bearer ${res.body.id_token}`).expect(200);
    // The used token is spent; replaying it revokes the whole family, including the new one.
    await ctx.http.post('/auth/refresh').send({ refresh_token: user.refreshToken }).expect(401);
    await ctx.http.post('/auth/refresh').send({ refresh_token: res.body.refresh_token }).expect(401);
  });

  it('stores refresh tokens hashed', async () => {
    const user = await signupAndLogin(ctx);
    const [, secret] = user.refreshToken.split('.');
    const rows = await ctx.db.selectFrom('refresh_tokens').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash.includes(secret!))).toBe(false);
  });

  it.each([['garbage'], ['rtk_unknown.secret'], ['a.b.c']])('rejects %s with 401', async (token) => {
    const res = await ctx.http.post('/auth/refresh').send({ refresh_token: token }).expect(401);
    expect(res.body.code).toBe('invalid_refresh_token');
  });

  it('rejects an expired refresh token', async () => {
    const user = await signupAndLogin(ctx);
    const [id] = user.refreshToken.split('.');
    await ctx.db
      .updateTable('refresh_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', id!)
      .execute();
    await ctx.http.post('/auth/refresh').send({ refresh_token: user.refreshToken }).expect(401);
  });
});

describe('POST /auth/logout', () => {
  it('revokes the refresh token', async () => {
    const user = await signupAndLogin(ctx);
    await ctx.http.post('/auth/logout').send({ refresh_token: user.refreshToken }).expect(204);
    await ctx.http.post('/auth/refresh').send({ refresh_token: user.refreshToken }).expect(401);
    await ctx.http.post('/auth/logout').send({ refresh_token: user.refreshToken }).expect(204);
  });
});
