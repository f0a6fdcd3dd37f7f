import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { newId } from '../../domain/ids';
import { TRUSTED_PRINCIPALS_PER_TENANT } from '../../domain/tenancy/limits';
import { waitFor } from '../helpers/patience';
import { type AlertPeers, startAlertPeers } from '../helpers/alerts';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';

// Trusted principals (docs/decisions.md, "Trusted principals"): an admin names the tenant's automation with a reason
// and an expiry, any member lists it, each change is in the audit log. Through POST /ingest/aws/events with real
// EventBridge envelopes (test/fixtures/aws-events), the API process firing the tenant's alert rule after each answer:
// a trusted principal's call is stored and opens no signal for the detections named, while another detection of the
// same call, another principal's call, an expired entry and a revoked one open theirs. Each test has an AWS account
// of its own (connected, its events taken from then on).

const FIXTURES = path.join(__dirname, '../fixtures/aws-events');
const HEADER = 'X-Sentinel-Event-Key';
const DAY = 86_400_000;
const CREATED = 'event.access_key_created';
const FOR_ANOTHER = 'event.access_key_created_for_another_user';

let ctx: TestContext;
let peers: AlertPeers;
let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let viewer: TestUser;
let sequence = 0;
let nextAccount = 0;

interface Account {
  awsId: string;
  key: string;
}

interface Listed {
  trusted_principal_id: string;
  aws_account_id: string | null;
  principal: string;
  detections: string[] | 'all';
  status: string;
}

function fixture(name: string): Record<string, unknown> & { detail: Record<string, unknown> } {
  return JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));
}

/** The identity CloudTrail writes for a session `session` of the account's role `role`. */
const session = (account: Account, role: string, name: string) => ({
  type: 'AssumedRole',
  principalId: `AROAEXAMPLEID:${name}`,
  arn: `arn:aws:sts::${account.awsId}:assumed-role/${role}/${name}`,
  accountId: account.awsId,
  accessKeyId: 'ASIAEXAMPLEKEY123456',
  sessionContext: {
    sessionIssuer: {
      type: 'Role',
      principalId: 'AROAEXAMPLEID',
      arn: `arn:aws:iam::${account.awsId}:role/${role}`,
      accountId: account.awsId,
      userName: role,
    },
    attributes: { creationDate: new Date().toISOString(), mfaAuthenticated: 'false' },
  },
});

/** An access key created for another user (two detections) by `userIdentity`, as a new event of `account`. */
function keyCreatedBy(account: Account, userIdentity: unknown) {
  sequence += 1;
  const base = fixture('create-access-key');
  return {
    ...base,
    id: `trusted-${sequence}-${Date.now()}`,
    account: account.awsId,
    time: new Date().toISOString(),
    detail: { ...base.detail, userIdentity },
  };
}

async function ingest(account: Account, body: unknown): Promise<{ accepted: number; signals_opened: number }> {
  const res = await ctx.http
    .post('/ingest/aws/events')
    .set('Content-Type', 'application/json')
    .set(HEADER, account.key)
    .send(JSON.stringify(body))
    .expect(202);
  return res.body;
}

/** A new AWS account of `user`'s tenant, connected with its event key. */
async function connect(user: TestUser = owner): Promise<Account> {
  nextAccount += 1;
  const awsId = `5${String(nextAccount).padStart(2, '0')}${String(Date.now()).slice(-9)}`;
  const res = await ctx.http.post('/accounts').set(user.auth).send({ aws_account_id: awsId }).expect(201);
  return { awsId, key: res.body.event_forwarding.api_key };
}

const trust = (user: TestUser, body: Record<string, unknown>) =>
  ctx.http.post('/trusted-principals').set(user.auth).send(body);
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const roleArn = (account: Account, role: string) => `arn:aws:iam::${account.awsId}:role/${role}`;

/** The newest event of the account, as the API lists it. */
async function newestEvent(account: Account) {
  const res = await ctx.http.get(`/accounts/${account.awsId}/events`).query({ limit: 1 }).set(owner.auth).expect(200);
  return res.body.events[0] as {
    event_id: string;
    detections: string[];
    suppressed: { detection: string; trusted_principal_id: string }[];
  };
}

async function signalsOf(account: Account, checkId: string): Promise<{ description: string }[]> {
  const res = await ctx.http
    .get(`/accounts/${account.awsId}/signals`)
    .query({ check_id: checkId, limit: 200 })
    .set(owner.auth)
    .expect(200);
  return res.body.signals;
}

/** The account's alerts, once every batch of its events has been acted on (the rules fired after each answer). */
async function alertsOf(account: Account): Promise<unknown[]> {
  await waitFor(async () => {
    const left = await ctx.db
      .selectFrom('event_batches')
      .innerJoin('accounts', 'accounts.id', 'event_batches.account_id')
      .select('event_batches.id')
      .where('accounts.aws_account_id', '=', account.awsId)
      .where('event_batches.dispatched_at', 'is', null)
      .execute();
    return left.length === 0;
  });
  const res = await ctx.http.get('/alerts').query({ limit: 200 }).set(owner.auth).expect(200);
  return res.body.alerts.filter((a: { cloud_account_id: string }) => a.cloud_account_id === account.awsId);
}

beforeAll(async () => {
  peers = await startAlertPeers();
  ctx = await createTestContext({
    withWorker: true,
    config: { CLOUD_PROVIDER: 'sandbox', ...peers.config, SLACK_WEBHOOK_URL_PREFIX: `${peers.slack.url}/` },
  });
  owner = await signupAndLogin(ctx);
  admin = await addUserWithRole(ctx, owner.tenantId, 'admin');
  member = await addUserWithRole(ctx, owner.tenantId, 'member');
  viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
  await ctx.db.updateTable('tenants').set({ plan: 'agency' }).where('id', '=', owner.tenantId).execute();
  // Every new finding of every scenario alerts (a threshold of 0 is never crossed).
  await ctx.http
    .post('/alert-rules')
    .set(owner.auth)
    .send({
      name: 'Every new finding',
      min_srs: 0,
      scenarios: [],
      channels: [{ type: 'slack', webhook_url: `${peers.slack.url}/services/T000/B000/trusted` }],
    })
    .expect(201);
});
afterAll(async () => {
  await ctx?.close();
  await peers?.close();
});

describe('naming, listing and revoking', () => {
  it('an admin names one, any member lists it, an admin revokes it, and the audit log records both with who', async () => {
    const account = await connect();
    const created = await trust(admin, {
      aws_account_id: account.awsId,
      principal: roleArn(account, 'terraform'),
      detections: [CREATED],
      reason: '  Terraform applies from CI  ',
      expires_at: inDays(30),
    }).expect(201);
    expect(created.body).toMatchObject({
      trusted_principal_id: expect.stringMatching(/^trp_[0-9A-Z]{26}$/),
      aws_account_id: account.awsId,
      principal: roleArn(account, 'terraform'),
      detections: [CREATED],
      reason: 'Terraform applies from CI',
      created_by: { user_id: admin.userId, email: admin.email },
      revoked_at: null,
      status: 'in_force',
    });
    const id = created.body.trusted_principal_id as string;
    const everywhere = await trust(owner, {
      principal: `arn:aws:sts::${account.awsId}:assumed-role/ci/*`,
      detections: 'all',
      reason: 'CI deploys',
      expires_at: inDays(365),
    }).expect(201);
    expect(everywhere.body).toMatchObject({ aws_account_id: null, detections: 'all' });

    for (const user of [viewer, member]) {
      const listed = await ctx.http.get('/trusted-principals').set(user.auth).expect(200);
      expect(listed.body.trusted_principals.map((t: Listed) => t.trusted_principal_id)).toEqual(
        expect.arrayContaining([id, everywhere.body.trusted_principal_id]),
      );
      expect(listed.body.limit).toBe(TRUSTED_PRINCIPALS_PER_TENANT);
    }
    // A member may not name one nor revoke one.
    const refused = await trust(member, {
      principal: roleArn(account, 'mine'),
      detections: 'all',
      reason: 'because',
      expires_at: inDays(1),
    }).expect(403);
    expect(refused.body.code).toBe('forbidden');
    await ctx.http.delete(`/trusted-principals/${id}`).set(member.auth).expect(403);

    await ctx.http.delete(`/trusted-principals/${id}`).set(admin.auth).expect(200);
    expect((await ctx.http.delete(`/trusted-principals/${id}`).set(admin.auth).expect(404)).body.code).toBe(
      'not_found',
    );
    await ctx.http.delete('/trusted-principals/trp_nothing').set(admin.auth).expect(404);
    const inForce = await ctx.http.get('/trusted-principals').set(viewer.auth).expect(200);
    expect(inForce.body.trusted_principals.map((t: Listed) => t.trusted_principal_id)).not.toContain(id);
    const all = await ctx.http.get('/trusted-principals').query({ status: 'all' }).set(viewer.auth).expect(200);
    expect(all.body.trusted_principals.find((t: Listed) => t.trusted_principal_id === id)).toMatchObject({
      status: 'revoked',
      revoked_by_user_id: admin.userId,
    });
    await ctx.http.get('/trusted-principals').query({ status: 'revoked' }).set(viewer.auth).expect(400);

    const audit = await ctx.http.get('/audit-log').set(owner.auth).expect(200);
    const ofThis = audit.body.events.filter((e: { target: string }) => e.target === `trusted_principal:${id}`);
    expect(ofThis.map((e: { action: string }) => e.action)).toEqual([
      'trusted_principal.revoked',
      'trusted_principal.created',
    ]);
    expect(ofThis[1]).toMatchObject({
      actor: { user_id: admin.userId, email: admin.email },
      details: {
        principal: roleArn(account, 'terraform'),
        account: account.awsId,
        detections: CREATED,
        reason: 'Terraform applies from CI',
      },
    });
    expect(ofThis[0]).toMatchObject({ actor: { user_id: admin.userId } });
  });

  it.each([
    ['a malformed ARN', { principal: 'terraform' }, 'principal', /not an IAM role/],
    ['the root user', { principal: 'arn:aws:iam::123456789012:root' }, 'principal', /root user/],
    ['a wildcard role', { principal: 'arn:aws:iam::123456789012:role/*' }, 'principal', /role session ARN/],
    ['an unknown detection', { detections: ['event.iam_user_created', 'event.nope'] }, 'detections.1', /event\.nope/],
    ['no detection', { detections: [] }, 'detections', /at least one/],
    ['a missing reason', { reason: undefined }, 'reason', /.+/],
    ['a blank reason', { reason: '   ' }, 'reason', /1-500/],
    ['a reason too long', { reason: 'x'.repeat(501) }, 'reason', /1-500/],
    ['no expiry', { expires_at: undefined }, 'expires_at', /.+/],
    ['a past expiry', { expires_at: new Date(Date.now() - 60_000).toISOString() }, 'expires_at', /future/],
    ['an expiry too far', { expires_at: inDays(366) }, 'expires_at', /365 days/],
    ['another field', { everyone: true }, '', /everyone/],
    ['an account not of the tenant', { aws_account_id: '999999999999' }, 'aws_account_id', /not an AWS account/],
  ])('refuses %s with a 400 naming it, and stores nothing', async (_what, change, field, message) => {
    const before = await ctx.db.selectFrom('trusted_principals').select('id').execute();
    const body = {
      principal: 'arn:aws:iam::123456789012:role/terraform',
      detections: [CREATED],
      reason: 'Terraform applies from CI',
      expires_at: inDays(30),
      ...change,
    };
    const res = await trust(admin, body).expect(400);
    expect(res.body.code).toBe('validation_failed');
    const problem = (res.body.details as { field: string; message: string }[]).find((d) => d.field === field);
    expect({ field, problem: problem?.message ?? res.body.error }).toEqual({
      field,
      problem: expect.stringMatching(message),
    });
    expect(await ctx.db.selectFrom('trusted_principals').select('id').execute()).toHaveLength(before.length);
  });

  it(`holds at most ${TRUSTED_PRINCIPALS_PER_TENANT} in force per tenant; a revoked one makes room`, async () => {
    const capped = await signupAndLogin(ctx);
    const entry = {
      tenant_id: capped.tenantId,
      principal: 'arn:aws:iam::123456789012:role/terraform',
      reason: 'filling',
      expires_at: new Date(Date.now() + DAY),
      created_by: capped.userId,
      created_by_email: capped.email,
    };
    await ctx.db
      .insertInto('trusted_principals')
      .values(
        Array.from({ length: TRUSTED_PRINCIPALS_PER_TENANT - 1 }, () => ({ ...entry, id: newId('trustedPrincipal') })),
      )
      .execute();
    const body = { principal: entry.principal, detections: 'all', reason: 'the last', expires_at: inDays(1) };
    const last = await trust(capped, body).expect(201);
    const over = await trust(capped, body).expect(403);
    expect(over.body).toMatchObject({ code: 'plan_limit_exceeded' });
    expect(over.body.error).toContain(String(TRUSTED_PRINCIPALS_PER_TENANT));
    await ctx.http.delete(`/trusted-principals/${last.body.trusted_principal_id}`).set(capped.auth).expect(200);
    await trust(capped, body).expect(201);
  });

  it("is the tenant's own: another tenant neither lists nor revokes it, and its entries suppress nothing here", async () => {
    const account = await connect();
    const other = await signupAndLogin(ctx);
    const ours = await trust(owner, {
      principal: roleArn(account, 'ours'),
      detections: 'all',
      reason: 'Ours',
      expires_at: inDays(2),
    }).expect(201);
    const listed = await ctx.http.get('/trusted-principals').query({ status: 'all' }).set(other.auth).expect(200);
    expect(listed.body.trusted_principals).toEqual([]);
    const revoke = await ctx.http.delete(`/trusted-principals/${ours.body.trusted_principal_id}`).set(other.auth);
    expect(revoke.status).toBe(404);
    expect(
      (
        await ctx.db
          .selectFrom('trusted_principals')
          .select('revoked_at')
          .where('id', '=', ours.body.trusted_principal_id)
          .executeTakeFirstOrThrow()
      ).revoked_at,
    ).toBeNull();
    // The other tenant trusts a principal of this account: its trust is none of this tenant's.
    await trust(other, {
      principal: roleArn(account, 'theirs'),
      detections: 'all',
      reason: 'Theirs',
      expires_at: inDays(2),
    }).expect(201);
    expect((await ingest(account, keyCreatedBy(account, session(account, 'theirs', 'x1')))).signals_opened).toBe(2);
  });
});

describe('a trusted principal at ingestion', () => {
  it("opens no signal for the detection it names, while the call's other detection and another principal's call do", async () => {
    const account = await connect();
    const created = await trust(admin, {
      aws_account_id: account.awsId,
      principal: roleArn(account, 'terraform'),
      detections: [CREATED],
      reason: 'Terraform creates the deploy keys',
      expires_at: inDays(30),
    }).expect(201);
    const id = created.body.trusted_principal_id as string;

    const byTerraform = keyCreatedBy(account, session(account, 'terraform', 'gh-actions-1'));
    expect(await ingest(account, byTerraform)).toEqual({ accepted: 1, duplicates: 0, signals_opened: 1 });
    // Stored and listed: the detection that fired, and the one the trusted principal suppressed.
    const stored = await newestEvent(account);
    expect(stored).toMatchObject({
      event_id: byTerraform.id,
      detections: [FOR_ANOTHER],
      suppressed: [{ detection: CREATED, trusted_principal_id: id }],
    });
    expect(await signalsOf(account, CREATED)).toEqual([]);
    expect(await signalsOf(account, FOR_ANOTHER)).toHaveLength(1);
    // Filtering by detection finds the event by what it set off, not by what was suppressed.
    const filtered = await ctx.http
      .get(`/accounts/${account.awsId}/events`)
      .query({ detection: CREATED })
      .set(owner.auth)
      .expect(200);
    expect(filtered.body.events).toEqual([]);

    // Another role, and a role of the same name in another account, are other principals.
    const byOther = keyCreatedBy(account, session(account, 'deployer', 'gh-actions-1'));
    expect((await ingest(account, byOther)).signals_opened).toBe(2);
    expect(await newestEvent(account)).toMatchObject({ detections: [CREATED, FOR_ANOTHER], suppressed: [] });
    const elsewhere = { awsId: '999988887777', key: account.key };
    const fromElsewhere = keyCreatedBy(account, session(elsewhere, 'terraform', 'gh-actions-2'));
    await ingest(account, fromElsewhere);
    expect((await newestEvent(account)).suppressed).toEqual([]);
    expect(await signalsOf(account, CREATED)).toHaveLength(2);
  });

  it('fires no alert when it suppresses every detection of the call, and the event is still stored', async () => {
    const account = await connect();
    const created = await trust(admin, {
      principal: `arn:aws:sts::${account.awsId}:assumed-role/ci/*`,
      detections: 'all',
      reason: 'CI runs the integration suite against this account',
      expires_at: inDays(7),
    }).expect(201);
    const call = keyCreatedBy(account, session(account, 'ci', 'build-42'));
    expect(await ingest(account, call)).toEqual({ accepted: 1, duplicates: 0, signals_opened: 0 });
    expect(await newestEvent(account)).toMatchObject({
      event_id: call.id,
      detections: [],
      suppressed: [
        { detection: CREATED, trusted_principal_id: created.body.trusted_principal_id },
        { detection: FOR_ANOTHER, trusted_principal_id: created.body.trusted_principal_id },
      ],
    });
    expect(await alertsOf(account)).toEqual([]);
    // A sign-in of someone else in the same account still alerts.
    const signIn = {
      ...fixture('root-console-sign-in'),
      id: `root-${Date.now()}`,
      account: account.awsId,
      time: new Date().toISOString(),
    };
    expect((await ingest(account, signIn)).signals_opened).toBe(1);
    expect(await alertsOf(account)).toHaveLength(1);
  });

  it("covers one account when it names one: the tenant's other accounts still alert", async () => {
    const [named, other] = [await connect(), await connect()];
    await trust(admin, {
      aws_account_id: named.awsId,
      principal: `arn:aws:sts::${other.awsId}:assumed-role/terraform/*`,
      detections: 'all',
      reason: 'Terraform, but only in the named account',
      expires_at: inDays(7),
    }).expect(201);
    expect((await ingest(other, keyCreatedBy(other, session(other, 'terraform', 'x1')))).signals_opened).toBe(2);
  });

  it('stops suppressing at once once expired or revoked', async () => {
    const account = await connect();
    /** Trusts role `role` of the account for both detections of the call. */
    const trustRole = async (role: string) =>
      (
        await trust(admin, {
          aws_account_id: account.awsId,
          principal: roleArn(account, role),
          detections: [CREATED, FOR_ANOTHER],
          reason: `${role} creates the deploy keys`,
          expires_at: inDays(30),
        }).expect(201)
      ).body.trusted_principal_id as string;
    // Each role's calls are its own occurrences: the first one that is not suppressed opens both signals.
    const byRole = (role: string) => keyCreatedBy(account, session(account, role, 'gh-actions-1'));

    const expiring = await trustRole('terraform');
    expect((await ingest(account, byRole('terraform'))).signals_opened).toBe(0);
    await sql`update trusted_principals set created_at = now() - interval '2 days', expires_at = now() - interval '1 second'
      where id = ${expiring}`.execute(ctx.db);
    expect((await ingest(account, byRole('terraform'))).signals_opened).toBe(2);
    expect(await newestEvent(account)).toMatchObject({ detections: [CREATED, FOR_ANOTHER], suppressed: [] });
    const listed = await ctx.http.get('/trusted-principals').query({ status: 'all' }).set(viewer.auth).expect(200);
    expect(listed.body.trusted_principals.find((t: Listed) => t.trusted_principal_id === expiring).status).toBe(
      'expired',
    );

    const revoking = await trustRole('pulumi');
    expect((await ingest(account, byRole('pulumi'))).signals_opened).toBe(0);
    expect((await newestEvent(account)).suppressed).toHaveLength(2);
    await ctx.http.delete(`/trusted-principals/${revoking}`).set(owner.auth).expect(200);
    expect((await ingest(account, byRole('pulumi'))).signals_opened).toBe(2);
    expect((await newestEvent(account)).suppressed).toEqual([]);
    expect(await alertsOf(account)).not.toEqual([]);
  });
});
