import jwt from 'jsonwebtoken';
import request from 'supertest';
import {
  createTestContext,
  signupAndLogin,
  TEST_JWT_SECRET,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { type ApiProcess, startSandboxApi } from '../helpers/worker-process';

// A session is one sign-in and its refreshes; every id token names its session, and every authenticated request
// checks it in the database. Two real API processes on one database, each with its own read cache: a session
// ended through one is refused by the other on the very next request, without waiting for anything.

let ctx: TestContext;
let apiA: ApiProcess;
let apiB: ApiProcess;

beforeAll(async () => {
  ctx = await createTestContext();
  [apiA, apiB] = await Promise.all([startSandboxApi(ctx), startSandboxApi(ctx)]);
});

afterAll(async () => {
  await Promise.all([apiA?.stop(), apiB?.stop()]);
  await ctx?.close();
});

const me = (api: ApiProcess, idToken: string) => request(api.url).get('/me').set('Authorization', `Bearer ${idToken}`);
const login = async (api: ApiProcess, user: TestUser) =>
  (await request(api.url).post('/auth/login').send({ email: user.email, password: user.password }).expect(200))
    .body as { id_token: string; refresh_token: string };

describe('sessions across API processes', () => {
  it('ends at logout: the id token is refused at once by the other process, whose cache held its caller', async () => {
    const user = await signupAndLogin({ http: request(apiA.url), db: ctx.db });
    const other = await login(apiA, user);
    // B has authenticated the caller (and keeps them in its cache) before the logout.
    await me(apiB, user.idToken).expect(200);
    await me(apiB, user.idToken).expect(200);

    await request(apiA.url).post('/auth/logout').send({ refresh_token: user.refreshToken }).expect(204);
    expect((await me(apiB, user.idToken).expect(401)).body.code).toBe('unauthorized');
    await me(apiA, user.idToken).expect(401);
    await request(apiB.url).post('/auth/refresh').send({ refresh_token: user.refreshToken }).expect(401);
    // The user's other session goes on.
    await me(apiB, other.id_token).expect(200);
  });

  it('ends every session of the user when a used refresh token comes back, however many refreshes ago', async () => {
    const user = await signupAndLogin({ http: request(apiA.url), db: ctx.db });
    const phone = await login(apiB, user);
    const refreshed = (
      await request(apiA.url).post('/auth/refresh').send({ refresh_token: user.refreshToken }).expect(200)
    ).body as { id_token: string; refresh_token: string };
    for (const token of [user.idToken, refreshed.id_token, phone.id_token]) await me(apiB, token).expect(200);

    // The spent token again: somebody else holds a copy.
    await request(apiA.url).post('/auth/refresh').send({ refresh_token: user.refreshToken }).expect(401);
    for (const token of [user.idToken, refreshed.id_token, phone.id_token]) {
      await me(apiB, token).expect(401);
      await me(apiA, token).expect(401);
    }
    for (const token of [refreshed.refresh_token, phone.refresh_token])
      await request(apiB.url).post('/auth/refresh').send({ refresh_token: token }).expect(401);
    // Signing in again starts a new session.
    await me(apiB, (await login(apiA, user)).id_token).expect(200);
  });

  it('refuses an id token issued before sessions existed, and lets such a refresh token start a session', async () => {
    const user = await signupAndLogin({ http: request(apiA.url), db: ctx.db });
    const sessionless = jwt.sign(
      { tid: user.tenantId, email: user.email, name: 'Test Owner', token_use: 'id' },
      TEST_JWT_SECRET,
      { subject: user.userId, issuer: 'sentinel', audience: 'sentinel-api', expiresIn: 3600 },
    );
    await me(apiA, sessionless).expect(401);
    const [id] = user.refreshToken.split('.');
    await ctx.db.updateTable('refresh_tokens').set({ session_id: null }).where('id', '=', id!).execute();
    const refreshed = await request(apiB.url)
      .post('/auth/refresh')
      .send({ refresh_token: user.refreshToken })
      .expect(200);
    await me(apiA, refreshed.body.id_token).expect(200);
    // Logging out of it ends the session it started.
    await request(apiA.url).post('/auth/logout').send({ refresh_token: refreshed.body.refresh_token }).expect(204);
    await me(apiB, refreshed.body.id_token).expect(401);
  });
});
