import { sql } from 'kysely';
import request from 'supertest';
import { addUserWithRole, createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';
import { type ApiProcess, startSandboxApi } from '../helpers/worker-process';

// Two real API processes on one database, each with its cache of callers (api/caller-cache.ts): a change made
// through one applies on the other at its next request, and the cache is really used in between.

let ctx: TestContext;
let apiA: ApiProcess;
let apiB: ApiProcess;
let owner: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  [apiA, apiB] = await Promise.all([startSandboxApi(ctx), startSandboxApi(ctx)]);
  owner = await signupAndLogin({ http: request(apiA.url), db: ctx.db });
}, 120_000);

afterAll(async () => {
  await Promise.all([apiA?.stop(), apiB?.stop()]);
  await ctx?.close();
});

/** `sentinel_caller_cache_lookups_total{result}` of an API process. */
async function cacheLookups(api: ApiProcess, result: 'hit' | 'miss'): Promise<number> {
  const text = await (await fetch(api.metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith(`sentinel_caller_cache_lookups_total{result="${result}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

const me = (api: ApiProcess, user: TestUser) => request(api.url).get('/me').set(user.auth);
// Inviting needs the admin role: it shows the role the process acts on, not only the one it reports.
const invite = (api: ApiProcess, user: TestUser) => request(api.url).post('/users/invite').set(user.auth)
  .send({ email: `invitee-${Math.random().toString(36).slice(2)}@example.com`, name: 'Invitee', role: 'viewer' });

describe('the caller cache across API processes', () => {
  it('serves repeated requests from the cache, and a role change made on one process applies at once on the other', async () => {
    const admin = await addUserWithRole(ctx, owner.tenantId, 'admin');
    expect((await me(apiB, admin).expect(200)).body.user.role).toBe('admin');
    const hitsBefore = await cacheLookups(apiB, 'hit');
    for (let i = 0; i < 3; i++) await me(apiB, admin).expect(200);
    expect(await cacheLookups(apiB, 'hit')).toBeGreaterThanOrEqual(hitsBefore + 3);
    await invite(apiB, admin).expect(201);

    await request(apiA.url).patch(`/users/${admin.userId}`).set(owner.auth).send({ role: 'viewer' }).expect(200);

    expect((await me(apiB, admin).expect(200)).body.user.role).toBe('viewer');
    await invite(apiB, admin).expect(403);
  });

  it('refuses a removed user on the other process at its next request', async () => {
    const member = await addUserWithRole(ctx, owner.tenantId, 'member');
    await me(apiB, member).expect(200);
    await me(apiB, member).expect(200);

    await request(apiA.url).delete(`/users/${member.userId}`).set(owner.auth).expect(204);

    await me(apiB, member).expect(401);
    await request(apiB.url).get('/accounts').set(member.auth).expect(401);
  });

  it('applies a change written straight to the database (no API involved)', async () => {
    const admin = await addUserWithRole(ctx, owner.tenantId, 'admin');
    await me(apiB, admin).expect(200);
    await me(apiB, admin).expect(200);
    await ctx.db.updateTable('users').set({ role: 'viewer' }).where('id', '=', admin.userId).execute();
    // Announced on the listening connection, which may be a moment behind this one: within a second, not 5 minutes.
    await roleBecomes(apiB, admin, 'viewer');
  });

  it('reads from the database while it cannot listen, and starts empty once it listens again', async () => {
    const admin = await addUserWithRole(ctx, owner.tenantId, 'admin');
    await me(apiB, admin).expect(200);
    await me(apiB, admin).expect(200);
    // Cut both processes' listening connections: a change made now is announced to nobody.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where query = 'listen sentinel_user_changed'`.execute(ctx.db);
    await ctx.db.updateTable('users').set({ role: 'member' }).where('id', '=', admin.userId).execute();
    await roleBecomes(apiB, admin, 'member');

    // Back to caching once the connection is back (it reconnects within a second or so).
    const deadline = Date.now() + 15_000;
    let hits = await cacheLookups(apiB, 'hit');
    for (;;) {
      await me(apiB, admin).expect(200);
      const now = await cacheLookups(apiB, 'hit');
      if (now > hits) break;
      hits = now;
      if (Date.now() > deadline) throw new Error('the cache did not come back');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await ctx.db.updateTable('users').set({ role: 'viewer' }).where('id', '=', admin.userId).execute();
    await roleBecomes(apiB, admin, 'viewer');
  });
});

async function roleBecomes(api: ApiProcess, user: TestUser, role: string): Promise<void> {
  const deadline = Date.now() + 1_000;
  while ((await me(api, user).expect(200)).body.user.role !== role) {
    if (Date.now() > deadline) throw new Error(`the role did not become ${role}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
