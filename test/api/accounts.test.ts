import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { ABANDONED_CONNECT_MS, STOPPED_BY_RECONNECT } from '../../core/accounts/accounts';
import { newId } from '../../domain/ids';
import { accountRowLimit } from '../../domain/tenancy/limits';
import { ROLE_NAME } from '../../domain/onboarding/role';
import { getPlan } from '../../domain/tenancy/plans';
import { accountWorkflowId, stateQuery } from '../../workflows/contracts';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { random, type SeedAccount, seedFleet } from '../helpers/fleet';

// End to end against the Temporal dev server: the API starts the account workflow, a real worker runs it.
let ctx: TestContext;
let owner: TestUser;
beforeAll(async () => {
  ctx = await createTestContext({ withWorker: true });
  owner = await signupAndLogin(ctx);
});
afterAll(() => ctx.close());

describe('POST /accounts', () => {
  it('creates a PENDING account with our ExternalId and starts its workflow', async () => {
    const res = await ctx.http
      .post('/accounts')
      .set(owner.auth)
      .send({ aws_account_id: '111122223333', display_name: 'Production', tags: ['prod', 'prod', 'eu'] })
      .expect(201);
    expect(res.body).toMatchObject({
      aws_account_id: '111122223333',
      cloud_account_id: '111122223333',
      status: 'PENDING',
      sentinel_account_id: '123456789012', // moto's own account, from STS GetCallerIdentity
    });
    expect(res.body.external_id).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(res.body.terraform_snippet).toContain(res.body.external_id);
    expect(res.body.fallback_cli_script).toContain(res.body.external_id);

    const handle = ctx.temporal.workflow.getHandle(accountWorkflowId(owner.tenantId, '111122223333'));
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(await handle.query(stateQuery)).toMatchObject({ status: 'PENDING' });

    const got = await ctx.http.get('/accounts/111122223333').set(owner.auth).expect(200);
    expect(got.body).toMatchObject({
      display_name: 'Production',
      tags: ['prod', 'eu'],
      status: 'PENDING',
      current_srs: null,
    });
  });

  it('accepts the neutral alias cloud_account_id', async () => {
    const other = await signupAndLogin(ctx);
    await ctx.http.post('/accounts').set(other.auth).send({ cloud_account_id: '444455556666' }).expect(201);
  });

  it('gives each account a different ExternalId', async () => {
    const a = await signupAndLogin(ctx);
    const b = await signupAndLogin(ctx);
    const ra = await ctx.http.post('/accounts').set(a.auth).send({ aws_account_id: '777788889999' }).expect(201);
    const rb = await ctx.http.post('/accounts').set(b.auth).send({ aws_account_id: '777788889999' }).expect(201);
    expect(ra.body.external_id).not.toBe(rb.body.external_id);
  });

  it('rejects an account the tenant already has with 409', async () => {
    const res = await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: '111122223333' }).expect(409);
    expect(res.body.code).toBe('account_exists');
  });

  it('enforces the plan account limit with 403 and writes nothing', async () => {
    // The owner's solo plan allows one account, which the first test used.
    const res = await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: '999988887777' }).expect(403);
    expect(res.body.code).toBe('plan_limit_exceeded');
    const rows = await ctx.db.selectFrom('accounts').select('id').where('tenant_id', '=', owner.tenantId).execute();
    expect(rows).toHaveLength(1);
  });

  it("keeps at most twice the plan's accounts as rows, disconnected ones included; a disconnected one can be connected again", async () => {
    const churner = await signupAndLogin(ctx);
    const rowLimit = accountRowLimit(getPlan('solo').account_limit);
    const gone = Array.from({ length: rowLimit }, (_, i) => String(400000000000 + i));
    await ctx.db
      .insertInto('accounts')
      .values(
        gone.map((awsId, i) => ({
          id: `acc_churn${i}${churner.tenantId.slice(-6)}`,
          tenant_id: churner.tenantId,
          aws_account_id: awsId,
          display_name: null,
          tags: [],
          status: 'DISCONNECTED' as const,
          external_id: `${'c'.repeat(39)}${i}`,
          role_name: 'SentinelReadOnly',
          workflow_id: `wf-churn-${churner.tenantId}-${i}`,
        })),
      )
      .execute();
    const refused = await ctx.http
      .post('/accounts')
      .set(churner.auth)
      .send({ aws_account_id: '499999999999' })
      .expect(403);
    expect(refused.body).toEqual({
      error: `The Solo plan keeps at most ${rowLimit} accounts, disconnected ones included; connect one of your disconnected accounts again, or upgrade`,
      code: 'plan_limit_exceeded',
    });
    await ctx.http.post('/accounts').set(churner.auth).send({ aws_account_id: gone[0] }).expect(201);
    expect(
      await ctx.db.selectFrom('accounts').select('id').where('tenant_id', '=', churner.tenantId).execute(),
    ).toHaveLength(rowLimit);
  });

  it.each([
    ['an 11-digit id', { aws_account_id: '12345678901' }, 'aws_account_id'],
    ['a non-numeric id', { aws_account_id: '12345678901a' }, 'aws_account_id'],
    ['a missing id', {}, 'aws_account_id'],
    ['a 201-character display_name', { aws_account_id: '123456789012', display_name: 'x'.repeat(201) }, 'display_name'],
    ['tags that are not strings', { aws_account_id: '123456789012', tags: [1] }, 'tags'],
    ['an ExternalId chosen by the client', { aws_account_id: '123456789012', external_id: 'mine' }, 'external_id'],
  ])('rejects %s with 400', async (_label, body, field) => {
    const fresh = await signupAndLogin(ctx);
    const res = await ctx.http.post('/accounts').set(fresh.auth).send(body).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toContain(field);
  });
});

describe('GET /accounts', () => {
  it('lists only the caller tenant accounts', async () => {
    const res = await ctx.http.get('/accounts').set(owner.auth).expect(200);
    expect(res.body.total).toBe(1);
    expect(res.body.accounts).toEqual([
      {
        aws_account_id: '111122223333',
        cloud_account_id: '111122223333',
        display_name: 'Production',
        status: 'PENDING',
        current_srs: null,
        last_scan_at: null,
        tags: ['prod', 'eu'],
        coverage: null,
        score_complete: null,
      },
    ]);
  });

  it("shows each field as the account's own page does, timestamps to the millisecond in UTC (PostgreSQL builds the list)", async () => {
    await ctx.db
      .updateTable('accounts')
      .set({
        last_scan_at: new Date('2026-11-25T10:11:12.345Z'),
        current_srs: 72,
        coverage_evaluated: 60,
        coverage_total: 67,
        score_complete: false,
      })
      .where('aws_account_id', '=', '111122223333')
      .execute();
    // Microseconds, which a Date cannot hold: the list must cut them as toISOString() does.
    await sql`update accounts set last_scan_at = last_scan_at + interval '678 microseconds' where aws_account_id = '111122223333'`.execute(
      ctx.db,
    );
    const [listed] = (await ctx.http.get('/accounts').set(owner.auth).expect(200)).body.accounts;
    const detail = (await ctx.http.get('/accounts/111122223333').set(owner.auth).expect(200)).body;
    expect(listed).toEqual({
      aws_account_id: '111122223333',
      cloud_account_id: '111122223333',
      display_name: 'Production',
      status: 'PENDING',
      current_srs: 72,
      last_scan_at: '2026-11-25T10:11:12.345Z',
      tags: ['prod', 'eu'],
      coverage: { evaluated: 60, total: 67 },
      score_complete: false,
    });
    for (const [field, value] of Object.entries(listed as Record<string, unknown>))
      expect(detail[field]).toEqual(value);
  });

  it("shows the region baseline on the account's own page only, null until a scan learned one", async () => {
    const detail = async () => (await ctx.http.get('/accounts/111122223333').set(owner.auth).expect(200)).body;
    expect((await detail()).region_baseline).toBeNull();
    await ctx.db
      .updateTable('accounts')
      .set({
        region_baseline: ['eu-west-1', 'us-east-1'],
        region_baseline_learned_at: new Date('2026-11-20T08:00:00Z'),
      })
      .where('aws_account_id', '=', '111122223333')
      .execute();
    expect((await detail()).region_baseline).toEqual({
      regions: ['eu-west-1', 'us-east-1'],
      learned_at: '2026-11-20T08:00:00.000Z',
    });
    const [listed] = (await ctx.http.get('/accounts').set(owner.auth).expect(200)).body.accounts;
    expect(listed).not.toHaveProperty('region_baseline');
  });
});

describe('GET /accounts: pages, filters and order', () => {
  // 250 accounts seeded in the database (no workflows: the list reads rows only). Connection times come in groups
  // of three equal to the microsecond, so the id breaks ties; scores repeat, and one in six accounts has none.
  let fleet: TestUser;
  let accounts: SeedAccount[];
  const TAGS = ['prod', 'staging', 'eu'];
  const STATUSES = ['ACTIVE', 'ACTIVE', 'PENDING', 'DISCONNECTED'] as const;

  beforeAll(async () => {
    fleet = await signupAndLogin(ctx);
    const r = random(250);
    const base = Date.parse('2026-06-01T00:00:00Z');
    accounts = Array.from({ length: 250 }, (_, i) => ({
      id: `acc_page${String(1000 - i).padStart(4, '0')}${fleet.tenantId.slice(-6)}`,
      awsAccountId: String(300_000_000_000 + ((i * 7919) % 250)),
      displayName: `Paged ${i}`,
      tags: TAGS.filter(() => r.chance(0.4)),
      status: r.pick(STATUSES),
      currentSrs: i % 6 === 0 ? null : r.int(0, 20) * 5,
      coverage: null,
      scoreComplete: null,
      createdAt: new Date(base + Math.floor(i / 3) * 60_000),
    }));
    await seedFleet(ctx.db, fleet.tenantId, { accounts });
    // Microseconds PostgreSQL keeps and a millisecond cursor would lose.
    await sql`update accounts set created_at = created_at + interval '123 microseconds' where tenant_id = ${fleet.tenantId}`.execute(
      ctx.db,
    );
  });

  const connectedOrder = (list: SeedAccount[]) =>
    [...list]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map((a) => a.awsAccountId);
  const srsOrder = (list: SeedAccount[]) =>
    [...list]
      .sort((a, b) => (a.currentSrs ?? 101) - (b.currentSrs ?? 101) || (a.awsAccountId < b.awsAccountId ? -1 : 1))
      .map((a) => a.awsAccountId);

  /** Every page of a listing, following next_token; each page's total is checked against the first. */
  async function walk(query: Record<string, string | number>) {
    const ids: string[] = [];
    let token: string | null = null;
    let pages = 0;
    let total: number | undefined;
    do {
      const res: { body: { accounts: { aws_account_id: string }[]; total: number; next_token: string | null } } =
        await ctx.http
          .get('/accounts')
          .query({ ...query, ...(token ? { next_token: token } : {}) })
          .set(fleet.auth)
          .expect(200);
      total ??= res.body.total;
      expect(res.body.total).toBe(total);
      ids.push(...res.body.accounts.map((a) => a.aws_account_id));
      token = res.body.next_token;
      pages += 1;
    } while (token);
    return { ids, pages, total };
  }

  it('answers every account in one page by default, in the order they were connected', async () => {
    const res = await ctx.http.get('/accounts').set(fleet.auth).expect(200);
    expect(res.body.total).toBe(250);
    expect(res.body.next_token).toBeNull();
    expect(res.body.accounts.map((a: { aws_account_id: string }) => a.aws_account_id)).toEqual(
      connectedOrder(accounts),
    );
  });

  it('pages 250 accounts by 100: three pages, each account once, the total on each', async () => {
    const { ids, pages, total } = await walk({ limit: 100 });
    expect({ pages, total }).toEqual({ pages: 3, total: 250 });
    expect(ids).toEqual(connectedOrder(accounts));
  });

  it('sorts by score, worst first, unscored last, then by AWS account id, across pages', async () => {
    const { ids, pages } = await walk({ sort: 'srs', limit: 7 });
    expect(pages).toBe(Math.ceil(250 / 7));
    expect(ids).toEqual(srsOrder(accounts));
  });

  it.each([
    ['tag', { tag: 'staging' }, (a: SeedAccount) => a.tags.includes('staging')],
    ['status', { status: 'DISCONNECTED' }, (a: SeedAccount) => a.status === 'DISCONNECTED'],
    ['srs_below', { srs_below: 40 }, (a: SeedAccount) => a.currentSrs !== null && a.currentSrs < 40],
    ['srs_below 101 (every scored account)', { srs_below: 101 }, (a: SeedAccount) => a.currentSrs !== null],
    ['srs_below 0 (none)', { srs_below: 0 }, () => false],
    [
      'tag, status and srs_below together',
      { tag: 'prod', status: 'ACTIVE', srs_below: 60 },
      (a: SeedAccount) =>
        a.tags.includes('prod') && a.status === 'ACTIVE' && a.currentSrs !== null && a.currentSrs < 60,
    ],
  ])('filters by %s, in either order, with the total of all pages', async (_label, filter, matches) => {
    const expected = accounts.filter(matches);
    const connected = await walk({ ...filter, limit: 9 });
    expect(connected.total).toBe(expected.length);
    expect(connected.ids).toEqual(connectedOrder(expected));
    const worst = await walk({ ...filter, sort: 'srs', limit: 9 });
    expect(worst.ids).toEqual(srsOrder(expected));
  });

  it.each([
    ['a limit of 0', { limit: 0 }, 'limit'],
    ['a limit of 251', { limit: 251 }, 'limit'],
    ['a non-numeric limit', { limit: 'all' }, 'limit'],
    ['an unknown status', { status: 'GONE' }, 'status'],
    ['srs_below -1', { srs_below: -1 }, 'srs_below'],
    ['srs_below 102', { srs_below: 102 }, 'srs_below'],
    ['a fractional srs_below', { srs_below: 1.5 }, 'srs_below'],
    ['an unknown sort', { sort: 'name' }, 'sort'],
    ['an empty tag', { tag: ' ' }, 'tag'],
    ['an unknown parameter', { order: 'asc' }, 'order'],
  ])('rejects %s with 400 naming it', async (_label, query, field) => {
    const res = await ctx.http.get('/accounts').query(query).set(fleet.auth).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toContain(field);
  });

  it('rejects a malformed cursor, or one of the other order, with 400 invalid_cursor', async () => {
    const connected = (await ctx.http.get('/accounts').query({ limit: 1 }).set(fleet.auth).expect(200)).body.next_token;
    const bySrs = (await ctx.http.get('/accounts').query({ limit: 1, sort: 'srs' }).set(fleet.auth).expect(200)).body
      .next_token;
    const forged = Buffer.from(JSON.stringify(['srs', 101, '300000000000'])).toString('base64url');
    for (const [token, sort] of [
      ['garbage', 'connected'],
      [connected, 'srs'],
      [bySrs, 'connected'],
      [forged, 'srs'],
    ]) {
      const res = await ctx.http.get('/accounts').query({ next_token: token, sort }).set(fleet.auth).expect(400);
      expect(res.body.code).toBe('invalid_cursor');
    }
  });
});

describe('tenant isolation', () => {
  it("answers 404 for another tenant's account and changes nothing", async () => {
    const intruder = await signupAndLogin(ctx);
    await ctx.http.get('/accounts/111122223333').set(intruder.auth).expect(404);
    await ctx.http.delete('/accounts/111122223333').set(intruder.auth).expect(404);
    expect((await ctx.http.get('/accounts').set(intruder.auth).expect(200)).body).toEqual({
      accounts: [],
      total: 0,
      next_token: null,
    });
    const got = await ctx.http.get('/accounts/111122223333').set(owner.auth).expect(200);
    expect(got.body.status).toBe('PENDING');
  });

  it('answers 404 for an id that is not a 12-digit account id', async () => {
    await ctx.http.get('/accounts/not-an-id').set(owner.auth).expect(404);
  });
});

describe('DELETE /accounts/{account_id}', () => {
  it('disconnects through the workflow, which then completes; repeating it is harmless', async () => {
    const tenant = await signupAndLogin(ctx);
    await ctx.http.post('/accounts').set(tenant.auth).send({ aws_account_id: '222233334444' }).expect(201);
    const res = await ctx.http.delete('/accounts/222233334444').set(tenant.auth).expect(200);
    expect(res.body).toEqual({ message: expect.stringContaining('disconnected') });

    const handle = ctx.temporal.workflow.getHandle(accountWorkflowId(tenant.tenantId, '222233334444'));
    await handle.result();
    const got = await ctx.http.get('/accounts/222233334444').set(tenant.auth).expect(200);
    expect(got.body.status).toBe('DISCONNECTED');

    await ctx.http.delete('/accounts/222233334444').set(tenant.auth).expect(200);
    // A disconnected account no longer counts toward the plan limit.
    await ctx.http.post('/accounts').set(tenant.auth).send({ aws_account_id: '222233335555' }).expect(201);
  });

  it('lets a disconnected account be connected again, with a new ExternalId', async () => {
    const tenant = await signupAndLogin(ctx);
    const first = await ctx.http
      .post('/accounts')
      .set(tenant.auth)
      .send({ aws_account_id: '333344445555' })
      .expect(201);
    await ctx.http.delete('/accounts/333344445555').set(tenant.auth).expect(200);
    // A scan the old workflow was still running when the account is connected again is stopped with it.
    const account = await ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('tenant_id', '=', tenant.tenantId)
      .executeTakeFirstOrThrow();
    await ctx.db
      .insertInto('scans')
      .values({
        id: 'scan_in_flight_at_reconnect',
        tenant_id: tenant.tenantId,
        account_id: account.id,
        trigger: 'manual',
        status: 'running',
        started_at: new Date(),
      })
      .execute();
    const again = await ctx.http
      .post('/accounts')
      .set(tenant.auth)
      .send({ aws_account_id: '333344445555', display_name: 'Back' })
      .expect(201);
    expect(again.body.external_id).not.toBe(first.body.external_id);
    expect((await ctx.http.get('/accounts/333344445555').set(tenant.auth).expect(200)).body).toMatchObject({
      status: 'PENDING',
      display_name: 'Back',
    });
    const handle = ctx.temporal.workflow.getHandle(accountWorkflowId(tenant.tenantId, '333344445555'));
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect((await ctx.http.get('/accounts').set(tenant.auth).expect(200)).body.total).toBe(1);
    const stopped = await ctx.db
      .selectFrom('scans')
      .select(['status', 'failure_reason'])
      .where('id', '=', 'scan_in_flight_at_reconnect')
      .executeTakeFirstOrThrow();
    expect(stopped).toEqual({ status: 'failed', failure_reason: STOPPED_BY_RECONNECT });
  });
});

describe('roles', () => {
  it('lets a viewer read accounts but not connect or disconnect them', async () => {
    const viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
    await ctx.http.get('/accounts').set(viewer.auth).expect(200);
    await ctx.http.get('/accounts/111122223333').set(viewer.auth).expect(200);
    const connect = await ctx.http
      .post('/accounts')
      .set(viewer.auth)
      .send({ aws_account_id: '555566667777' })
      .expect(403);
    expect(connect.body.code).toBe('forbidden');
    await ctx.http.delete('/accounts/111122223333').set(viewer.auth).expect(403);
    expect((await ctx.http.get('/accounts/111122223333').set(owner.auth).expect(200)).body.status).toBe('PENDING');
  });

  it('lets a member connect accounts', async () => {
    const tenant = await signupAndLogin(ctx);
    const member = await addUserWithRole(ctx, tenant.tenantId, 'member');
    await ctx.http.post('/accounts').set(member.auth).send({ aws_account_id: '555566667777' }).expect(201);
  });

  it('stops accepting the tokens of a removed user at once', async () => {
    const tenant = await signupAndLogin(ctx);
    const member = await addUserWithRole(ctx, tenant.tenantId, 'member');
    await ctx.http.get('/me').set(member.auth).expect(200);
    await ctx.db.deleteFrom('users').where('id', '=', member.userId).execute();
    await ctx.http.get('/me').set(member.auth).expect(401);
  });
});

describe("a connect that stopped between its commit and its workflow's start", () => {
  /** What such a connect leaves behind: its PENDING row, committed, and no workflow. Answers the row's ExternalId. */
  async function leftBehind(user: TestUser, awsAccountId: string, { ageMs = ABANDONED_CONNECT_MS + 5_000 } = {}) {
    const at = new Date(Date.now() - ageMs);
    const externalId = randomBytes(24).toString('base64url');
    await ctx.db
      .insertInto('accounts')
      .values({
        id: newId('account'),
        tenant_id: user.tenantId,
        aws_account_id: awsAccountId,
        display_name: null,
        tags: [],
        external_id: externalId,
        role_name: ROLE_NAME,
        workflow_id: accountWorkflowId(user.tenantId, awsAccountId),
        status: 'PENDING',
        created_at: at,
        updated_at: at,
      })
      .execute();
    return externalId;
  }
  const rowOf = (user: TestUser, awsAccountId: string) =>
    ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('tenant_id', '=', user.tenantId)
      .where('aws_account_id', '=', awsAccountId)
      .executeTakeFirstOrThrow();

  it("is taken over by the next connect of the account, within the plan's limit it already counts in", async () => {
    const user = await signupAndLogin(ctx); // solo: one account
    const left = await leftBehind(user, '515151515151');
    const res = await ctx.http
      .post('/accounts')
      .set(user.auth)
      .send({ aws_account_id: '515151515151', display_name: 'Again' })
      .expect(201);
    expect(res.body.external_id).not.toBe(left);
    expect(await rowOf(user, '515151515151')).toMatchObject({
      status: 'PENDING',
      external_id: res.body.external_id,
      display_name: 'Again',
    });
    const handle = ctx.temporal.workflow.getHandle(accountWorkflowId(user.tenantId, '515151515151'));
    expect((await handle.describe()).status.name).toBe('RUNNING');
    // Taken over once: the account now has its workflow, and connecting again is the usual 409.
    expect(
      (await ctx.http.post('/accounts').set(user.auth).send({ aws_account_id: '515151515151' }).expect(409)).body.code,
    ).toBe('account_exists');
  });

  it('still belongs to its connect for a while (it may be about to start the workflow)', async () => {
    const user = await signupAndLogin(ctx);
    const left = await leftBehind(user, '525252525252', { ageMs: 0 });
    expect(
      (await ctx.http.post('/accounts').set(user.auth).send({ aws_account_id: '525252525252' }).expect(409)).body.code,
    ).toBe('account_exists');
    expect((await rowOf(user, '525252525252')).external_id).toBe(left);
  });

  it('answers a verify with how to repair it, and is closed by a disconnect', async () => {
    const user = await signupAndLogin(ctx);
    await leftBehind(user, '535353535353');
    const verify = await ctx.http.post('/accounts/535353535353/verify').set(user.auth).expect(409);
    expect(verify.body).toEqual({ code: 'invalid_state', error: expect.stringContaining('connect it again') });
    await ctx.http.delete('/accounts/535353535353').set(user.auth).expect(200);
    expect(await rowOf(user, '535353535353')).toMatchObject({
      status: 'DISCONNECTED',
      disconnected_at: expect.any(Date),
    });
    // The plan's one account is free again.
    await ctx.http.post('/accounts').set(user.auth).send({ aws_account_id: '545454545454' }).expect(201);
  });
});
