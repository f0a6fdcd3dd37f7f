import {
  CloseAccountCommand,
  CreateAccountCommand,
  CreateOrganizationalUnitCommand,
  CreateOrganizationCommand,
  ListRootsCommand,
  MoveAccountCommand,
  OrganizationsClient,
  RemoveAccountFromOrganizationCommand,
} from '@aws-sdk/client-organizations';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { IAMClient } from '@aws-sdk/client-iam';
import { ORGANIZATION_ROLE_NAME } from '../../domain/onboarding/organization';
import { trustPolicy } from '../../domain/onboarding/role';
import { organizationStateQuery } from '../../workflows/contracts';
import { SYNCS_PER_ORGANIZATION, SYNCS_PER_TENANT, VERIFIES_PER_ACCOUNT } from '../../domain/tenancy/limits';
import { waitFor } from '../helpers/patience';
import {
  accessDenied,
  createRole,
  createSentinelRole,
  customerAccount,
  type CustomerAccount,
  customerConfig,
  MOTO_ACCOUNT_ID,
  motoEndpoint,
  motoGaps,
  REGION,
  startAwsFront,
  TEST_CREDENTIALS,
  type AwsFront,
} from '../helpers/aws';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';

// AWS Organizations end to end: the API, the organization's workflow and its syncs on a real worker, the real AWS
// provider against an organization built in moto (management account, OUs, member accounts created, moved, closed and
// removed through moto's Organizations API). Member roles are created in each member account with the account role's
// own CLI script and the organization's one ExternalId, as the StackSet would.
//
// Scans are not what this suite is about: the front refuses every service but STS, IAM and Organizations (as an SCP
// would), so each member's first scan ends quickly with nothing to read.

let front: AwsFront;
let ctx: TestContext;
let owner: TestUser;
let viewer: TestUser;
let management: CustomerAccount;
let organizations: OrganizationsClient;
let rootId: string;
const ous = {} as Record<'workloads' | 'prod' | 'sandbox', string>;

beforeAll(async () => {
  front = await startAwsFront();
  front.answer = (request) =>
    motoGaps(request) ??
    (['sts', 'iam', 'organizations'].includes(request.service) ? undefined : accessDenied(request));
  ctx = await createTestContext({ withWorker: true, config: { AWS_ENDPOINT_URL: front.endpoint } });
  owner = await signupAndLogin(ctx);
  viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
  await setPlan('team');

  management = await customerAccount();
  organizations = new OrganizationsClient(customerConfig(management));
  await organizations.send(new CreateOrganizationCommand({ FeatureSet: 'ALL' }));
  rootId = (await organizations.send(new ListRootsCommand({}))).Roots![0]!.Id!;
  const ou = async (name: string, parent: string) =>
    (await organizations.send(new CreateOrganizationalUnitCommand({ ParentId: parent, Name: name })))
      .OrganizationalUnit!.Id!;
  ous.workloads = await ou('Workloads', rootId);
  ous.prod = await ou('Prod', ous.workloads);
  ous.sandbox = await ou('Sandbox', rootId);
});
afterAll(async () => {
  await ctx.close();
  organizations.destroy();
  await front.close();
});

const setPlan = (plan: 'solo' | 'team') =>
  ctx.db.updateTable('tenants').set({ plan }).where('id', '=', owner.tenantId).execute();

/** A new member account of the organization (the suite's, unless another is given), moved into `parent` (the root when absent). */
async function memberAccount(name: string, parent?: string, client = organizations): Promise<string> {
  const created = await client.send(new CreateAccountCommand({ AccountName: name, Email: `${name}@example.com` }));
  const id = created.CreateAccountStatus!.AccountId!;
  if (parent)
    await organizations.send(
      new MoveAccountCommand({ AccountId: id, SourceParentId: rootId, DestinationParentId: parent }),
    );
  return id;
}

/** The member role in a member account, created there by the account role's CLI script, as the StackSet would create it. */
async function deployMemberRole(accountId: string, externalId: string): Promise<void> {
  const sts = new STSClient({ region: REGION, endpoint: motoEndpoint(), credentials: TEST_CREDENTIALS });
  try {
    const { Credentials: c } = await sts.send(
      new AssumeRoleCommand({
        RoleArn: `arn:aws:iam::${accountId}:role/OrganizationAccountAccessRole`,
        RoleSessionName: 'stackset',
      }),
    );
    const credentials = {
      accessKeyId: c!.AccessKeyId!,
      secretAccessKey: c!.SecretAccessKey!,
      sessionToken: c!.SessionToken!,
    };
    await createSentinelRole({
      customer: {
        accountId,
        credentials,
        iam: new IAMClient({ region: REGION, endpoint: motoEndpoint(), credentials }),
      },
      externalId,
    });
  } finally {
    sts.destroy();
  }
}

interface Member {
  aws_account_id: string;
  name: string;
  ou_path: string;
  aws_status: string;
  state: string;
  reason: string | null;
  account_status: string | null;
  current_srs: number | null;
}

const detail = async (orgId: string) =>
  (await ctx.http.get(`/organizations/${orgId}`).set(viewer.auth).expect(200)).body;
const member = async (orgId: string, awsAccountId: string): Promise<Member> =>
  (await detail(orgId)).accounts.find((m: Member) => m.aws_account_id === awsAccountId);
const accounts = async () =>
  (await ctx.http.get('/accounts').set(viewer.auth).expect(200)).body.accounts as {
    aws_account_id: string;
    status: string;
    tags: string[];
    display_name: string | null;
  }[];
const account = async (awsAccountId: string) => (await accounts()).find((a) => a.aws_account_id === awsAccountId);

/** The organization's workflow state, once it has no sync running or due. */
async function idle(orgId: string, tenantId = owner.tenantId) {
  const handle = ctx.temporal.workflow.getHandle(`organization:${tenantId}:${orgId}`);
  let state = await handle.query(organizationStateQuery);
  await waitFor(async () => {
    state = await handle.query(organizationStateQuery);
    return !state.syncing && !state.syncDue;
  });
  return state;
}

/** POST /sync, then waits until that sync has run. */
async function syncNow(orgId: string): Promise<void> {
  const before = (await idle(orgId)).syncsCompleted;
  const res = await ctx.http.post(`/organizations/${orgId}/sync`).set(owner.auth).expect(202);
  expect(res.body).toEqual({ message: 'Sync started', org_id: orgId });
  await waitFor(async () => (await idle(orgId)).syncsCompleted > before);
}

describe('an organization kept in sync', () => {
  let orgId: string;
  let externalId: string;
  const ids = {} as Record<'prodApi' | 'prodDb' | 'sandbox' | 'late' | 'extra1' | 'extra2', string>;

  beforeAll(async () => {
    ids.prodApi = await memberAccount('prod-api', ous.prod);
    ids.prodDb = await memberAccount('prod-db', ous.prod);
    ids.sandbox = await memberAccount('sandbox-1', ous.sandbox);
  });

  it('POST /organizations answers one ExternalId, the management role three ways and the StackSet template', async () => {
    const res = await ctx.http
      .post('/organizations')
      .set(owner.auth)
      .send({ management_account_id: management.accountId, display_name: 'Acme', tags: ['fleet'] })
      .expect(201);
    orgId = res.body.org_id;
    externalId = res.body.external_id;
    expect(res.body).toMatchObject({
      org_id: expect.stringMatching(/^org_[0-9A-Z]{26}$/),
      management_account_id: management.accountId,
      sentinel_account_id: MOTO_ACCOUNT_ID,
      status: 'PENDING',
      management_role: { role_name: ORGANIZATION_ROLE_NAME },
    });
    expect(externalId).toHaveLength(32);
    expect(res.body.management_role.cli_script).toContain(externalId);
    expect(res.body.member_stackset_template).toContain('SentinelReadOnly');
    expect(res.body.instructions.join('\n')).toContain(`POST /organizations/${orgId}/verify`);
    const listed = (await ctx.http.get('/organizations').set(viewer.auth).expect(200)).body.organizations;
    expect(listed).toEqual([
      expect.objectContaining({
        org_id: orgId,
        status: 'PENDING',
        aws_organization_id: null,
        display_name: 'Acme',
        last_sync_at: null,
        accounts: { total: 0, monitored: 0, awaiting_role: 0, not_monitored_plan_limit: 0, disconnected: 0 },
      }),
    ]);
  });

  it('refuses a second live connection of the same management account (409), and bad input (400), writing nothing', async () => {
    const again = await ctx.http
      .post('/organizations')
      .set(owner.auth)
      .send({ management_account_id: management.accountId })
      .expect(409);
    expect(again.body.code).toBe('conflict');
    const bad = await ctx.http
      .post('/organizations')
      .set(owner.auth)
      .send({ management_account_id: '12345', colour: 'red' })
      .expect(400);
    expect(bad.body.code).toBe('validation_failed');
    expect(
      await ctx.db.selectFrom('organizations').select('id').where('tenant_id', '=', owner.tenantId).execute(),
    ).toHaveLength(1);
  });

  it('cannot sync before verification (409)', async () => {
    expect((await ctx.http.post(`/organizations/${orgId}/sync`).set(owner.auth).expect(409)).body.code).toBe(
      'invalid_state',
    );
  });

  it('answers 422 naming the management role while it does not exist, and stays PENDING', async () => {
    const res = await ctx.http.post(`/organizations/${orgId}/verify`).set(owner.auth).expect(422);
    expect(res.body.code).toBe('role_assumption_failed');
    expect(res.body.error).toContain(`arn:aws:iam::${management.accountId}:role/${ORGANIZATION_ROLE_NAME}`);
    expect((await detail(orgId)).status).toBe('PENDING');
  });

  it('verifies through the management role, then the first sync connects and verifies every member whose role is there', async () => {
    await createRole({
      customer: management,
      roleName: ORGANIZATION_ROLE_NAME,
      trustPolicy: trustPolicy({ sentinelAccountId: MOTO_ACCOUNT_ID, externalId }),
    });
    await deployMemberRole(ids.prodApi, externalId);
    await deployMemberRole(ids.prodDb, externalId);
    const res = await ctx.http.post(`/organizations/${orgId}/verify`).set(owner.auth).expect(200);
    expect(res.body).toEqual({
      org_id: orgId,
      status: 'ACTIVE',
      aws_organization_id: expect.stringMatching(/^o-/),
      accounts_found: 4,
    });
    await waitFor(async () => (await idle(orgId)).syncsCompleted >= 1);

    const org = await detail(orgId);
    expect(org).toMatchObject({
      status: 'ACTIVE',
      last_sync_error: null,
      account_counts: { total: 4, monitored: 2, awaiting_role: 1 },
    });
    expect(org.last_sync_at).not.toBeNull();
    // Ordered by OU path, then name: the tree the dashboard draws.
    expect(org.accounts.map((m: Member) => [m.ou_path, m.name, m.state, m.account_status])).toEqual([
      ['Root', 'master', 'management_account', null],
      ['Root/Sandbox', 'sandbox-1', 'awaiting_role', 'PENDING'],
      ['Root/Workloads/Prod', 'prod-api', 'monitored', 'ACTIVE'],
      ['Root/Workloads/Prod', 'prod-db', 'monitored', 'ACTIVE'],
    ]);
    expect((await member(orgId, ids.sandbox)).reason).toContain(`arn:aws:iam::${ids.sandbox}:role/SentinelReadOnly`);
    expect(await account(ids.prodApi)).toMatchObject({
      status: 'ACTIVE',
      display_name: 'prod-api',
      tags: ['fleet', 'ou:Root/Workloads/Prod', 'name:prod-api'],
    });
    // The management account is not connected by the organization: the StackSet does not reach it.
    expect(await account(management.accountId)).toBeUndefined();
    const rows = await ctx.db
      .selectFrom('accounts')
      .select(['external_id', 'organization_id'])
      .where('tenant_id', '=', owner.tenantId)
      .execute();
    expect(rows.every((r) => r.external_id === externalId && r.organization_id === orgId)).toBe(true);
  });

  it("counts a sync's role assumption for a member awaiting its role toward the account's verify limit", async () => {
    const assumeRoles = () =>
      front.requests.filter((r) => r.operation === 'AssumeRole' && r.body.includes(ids.sandbox)).length;
    // The first sync verified the member once: nine more attempts by hand fit in the hour, the tenth does not.
    for (let i = 0; i < VERIFIES_PER_ACCOUNT - 1; i += 1) {
      await ctx.http.post(`/accounts/${ids.sandbox}/verify`).set(owner.auth).expect(422);
    }
    const refused = await ctx.http.post(`/accounts/${ids.sandbox}/verify`).set(owner.auth).expect(429);
    expect(refused.body).toEqual({
      code: 'rate_limited',
      error: `At most ${VERIFIES_PER_ACCOUNT} verify attempts per account per hour`,
    });
    // A sync asked for now assumes no role for it either, and says why.
    const before = assumeRoles();
    await syncNow(orgId);
    expect(assumeRoles()).toBe(before);
    expect(await member(orgId, ids.sandbox)).toMatchObject({ state: 'awaiting_role', account_status: 'PENDING' });
    expect((await member(orgId, ids.sandbox)).reason).toContain(`${VERIFIES_PER_ACCOUNT} verify attempts of the hour`);
    // An hour later (the window taken away), syncs verify it again.
    await ctx.db.deleteFrom('rate_limits').where('key', '=', `verify:${owner.tenantId}:${ids.sandbox}`).execute();
  });

  it('monitors a member once its role appears and a sync is asked for', async () => {
    await deployMemberRole(ids.sandbox, externalId);
    await syncNow(orgId);
    expect(await member(orgId, ids.sandbox)).toMatchObject({
      state: 'monitored',
      account_status: 'ACTIVE',
      reason: null,
    });
  });

  it('picks up an account that joins later, and follows an account moved to another OU', async () => {
    ids.late = await memberAccount('late');
    await deployMemberRole(ids.late, externalId);
    await organizations.send(
      new MoveAccountCommand({ AccountId: ids.prodDb, SourceParentId: ous.prod, DestinationParentId: ous.sandbox }),
    );
    await syncNow(orgId);
    expect(await member(orgId, ids.late)).toMatchObject({
      ou_path: 'Root',
      state: 'monitored',
      account_status: 'ACTIVE',
    });
    expect(await member(orgId, ids.prodDb)).toMatchObject({ ou_path: 'Root/Sandbox', state: 'monitored' });
    expect((await account(ids.prodDb))?.tags).toEqual(['fleet', 'ou:Root/Sandbox', 'name:prod-db']);
  });

  it('disconnects a member that is closed and one that leaves the organization', async () => {
    await organizations.send(new CloseAccountCommand({ AccountId: ids.prodApi }));
    await organizations.send(new RemoveAccountFromOrganizationCommand({ AccountId: ids.sandbox }));
    await syncNow(orgId);
    expect(await member(orgId, ids.prodApi)).toMatchObject({
      aws_status: 'SUSPENDED',
      state: 'disconnected',
      account_status: 'DISCONNECTED',
    });
    expect(await member(orgId, ids.sandbox)).toMatchObject({
      aws_status: 'REMOVED',
      state: 'disconnected',
      account_status: 'DISCONNECTED',
    });
    // Counted: the accounts in the organization now (the management account too); the removed one no longer is.
    expect((await detail(orgId)).account_counts).toEqual({
      total: 4,
      monitored: 2,
      awaiting_role: 0,
      not_monitored_plan_limit: 0,
      disconnected: 1,
    });
  });

  it("connects no account past the plan's limit, and connects it once the plan has room", async () => {
    ids.extra1 = await memberAccount('extra-1', ous.workloads);
    ids.extra2 = await memberAccount('extra-2', ous.workloads);
    await deployMemberRole(ids.extra1, externalId);
    await deployMemberRole(ids.extra2, externalId);
    await setPlan('solo');
    await syncNow(orgId);
    for (const id of [ids.extra1, ids.extra2]) {
      const m = await member(orgId, id);
      expect(m).toMatchObject({ state: 'not_monitored_plan_limit', account_status: null });
      expect(m.reason).toContain('plan allows 1 connected account');
    }
    expect(
      await ctx.db
        .selectFrom('accounts')
        .select('id')
        .where('aws_account_id', 'in', [ids.extra1, ids.extra2])
        .execute(),
    ).toEqual([]);
    // Already monitored accounts stay monitored: the limit only stops new connections.
    expect(await member(orgId, ids.late)).toMatchObject({ state: 'monitored' });

    await setPlan('team');
    await syncNow(orgId);
    expect((await member(orgId, ids.extra1)).state).toBe('monitored');
    expect((await member(orgId, ids.extra2)).state).toBe('monitored');
  });

  it('DELETE stops the syncs and leaves the accounts connected; with disconnect_accounts=true it disconnects them, idempotently', async () => {
    const live = [ids.prodDb, ids.late, ids.extra1, ids.extra2];
    const removed = await ctx.http.delete(`/organizations/${orgId}`).set(owner.auth).expect(200);
    expect(removed.body.accounts_disconnected).toBe(0);
    expect((await detail(orgId)).status).toBe('DISCONNECTED');
    const described = await ctx.temporal.workflow.getHandle(`organization:${owner.tenantId}:${orgId}`).describe();
    expect(described.status.name).toBe('COMPLETED');
    for (const id of live) expect((await account(id))?.status).toBe('ACTIVE');
    expect((await ctx.http.post(`/organizations/${orgId}/sync`).set(owner.auth).expect(409)).body.code).toBe(
      'invalid_state',
    );

    const all = await ctx.http.delete(`/organizations/${orgId}?disconnect_accounts=true`).set(owner.auth).expect(200);
    expect(all.body.accounts_disconnected).toBe(live.length);
    for (const id of live) {
      expect((await account(id))?.status).toBe('DISCONNECTED');
      expect(await member(orgId, id)).toMatchObject({
        state: 'disconnected',
        reason: 'Disconnected with the organization.',
      });
    }
    expect(
      (await ctx.http.delete(`/organizations/${orgId}?disconnect_accounts=true`).set(owner.auth).expect(200)).body
        .accounts_disconnected,
    ).toBe(0);
  });

  it('records connect, verify and disconnect in the audit log, and what its syncs did to each account', async () => {
    const { events } = (await ctx.http.get('/audit-log').query({ limit: 200 }).set(owner.auth).expect(200)).body as {
      events: { action: string; target: string; actor: unknown; details: Record<string, unknown> }[];
    };
    const ofOrg = events
      .filter((e) => e.target === `organization:${orgId}`)
      .map((e) => e.action)
      .sort();
    expect(ofOrg).toEqual(['organization.connected', 'organization.disconnected', 'organization.verified']);
    // The syncs connected and verified prod-api, and disconnected it once closed: nobody signed in, the organization did.
    const bySync = events
      .filter((e) => e.target === `account:${ids.prodApi}` && e.details.organization_id === orgId)
      .reverse();
    expect(bySync.map((e) => e.action)).toEqual(['account.connected', 'account.verified', 'account.disconnected']);
    expect(bySync.every((e) => e.actor === null)).toBe(true);
  });

  it('lets the management account be connected again once disconnected', async () => {
    const again = await ctx.http
      .post('/organizations')
      .set(owner.auth)
      .send({ management_account_id: management.accountId })
      .expect(201);
    expect(again.body.org_id).not.toBe(orgId);
    expect(again.body.external_id).not.toBe(externalId);
    await ctx.http.delete(`/organizations/${again.body.org_id}`).set(owner.auth).expect(200);
  });
});

describe("the plan's organizations, the syncs asked for, and keys from before a disconnect", () => {
  // A tenant of its own with two organizations of their own in moto, each with only its management account at first.
  let tenant: TestUser;
  const fleets: { management: CustomerAccount; client: OrganizationsClient; orgId?: string; externalId?: string }[] =
    [];

  beforeAll(async () => {
    tenant = await signupAndLogin(ctx);
    await ctx.db.updateTable('tenants').set({ plan: 'solo' }).where('id', '=', tenant.tenantId).execute();
    for (let i = 0; i < 2; i += 1) {
      const management = await customerAccount();
      const client = new OrganizationsClient(customerConfig(management));
      await client.send(new CreateOrganizationCommand({ FeatureSet: 'ALL' }));
      fleets.push({ management, client });
    }
  });
  afterAll(() => {
    for (const fleet of fleets) fleet.client.destroy();
  });

  const connect = (managementAccountId: string) =>
    ctx.http.post('/organizations').set(tenant.auth).send({ management_account_id: managementAccountId });
  const orgsOfTenant = async () =>
    (await ctx.db.selectFrom('organizations').select('id').where('tenant_id', '=', tenant.tenantId).execute()).length;

  /** Creates the management role of the fleet's organization, verifies it, and waits for its first sync. */
  async function verifyFleet(fleet: (typeof fleets)[number]): Promise<void> {
    await createRole({
      customer: fleet.management,
      roleName: ORGANIZATION_ROLE_NAME,
      trustPolicy: trustPolicy({ sentinelAccountId: MOTO_ACCOUNT_ID, externalId: fleet.externalId! }),
    });
    await ctx.http.post(`/organizations/${fleet.orgId}/verify`).set(tenant.auth).expect(200);
    await waitFor(async () => (await idle(fleet.orgId!, tenant.tenantId)).syncsCompleted >= 1, 120_000);
  }

  it('connects as many organizations at once as the plan allows, 403 past it with nothing written', async () => {
    const [first, second] = fleets as [(typeof fleets)[number], (typeof fleets)[number]];
    const connected = await connect(first.management.accountId).expect(201);
    first.orgId = connected.body.org_id;
    first.externalId = connected.body.external_id;
    const refused = await connect(second.management.accountId).expect(403);
    expect(refused.body).toEqual({
      code: 'plan_limit_exceeded',
      error: 'The Solo plan allows 1 connected organization(s); disconnect one or upgrade to connect more',
    });
    expect(await orgsOfTenant()).toBe(1);

    await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', '=', tenant.tenantId).execute();
    const again = await connect(second.management.accountId).expect(201);
    second.orgId = again.body.org_id;
    second.externalId = again.body.external_id;
    expect((await connect('444455556666').expect(403)).body.error).toContain('The Team plan allows 2');
    expect(await orgsOfTenant()).toBe(2);
    // A disconnected organization frees its place.
    await ctx.http.delete(`/organizations/${second.orgId}`).set(tenant.auth).expect(200);
    const back = await connect(second.management.accountId).expect(201);
    second.orgId = back.body.org_id;
    second.externalId = back.body.external_id;
  });

  it("never lets a key from before a user's disconnect work again when the organization's sync connects the account", async () => {
    const [fleet] = fleets as [(typeof fleets)[number]];
    const awsId = await memberAccount('keyed', undefined, fleet.client);
    const probe = (key: string) =>
      ctx.http
        .post('/ingest/aws/events')
        .set('Content-Type', 'application/json')
        .set('X-Sentinel-Event-Key', key)
        .send('[]');
    // Connected on its own by a user, with a key; then disconnected by the user.
    const own = await ctx.http.post('/accounts').set(tenant.auth).send({ aws_account_id: awsId }).expect(201);
    const key = own.body.event_forwarding.api_key as string;
    expect((await probe(key)).status).toBe(400); // a key that works: the empty body is what is wrong
    await ctx.http.delete(`/accounts/${awsId}`).set(tenant.auth).expect(200);
    expect((await probe(key)).status).toBe(401);

    // The organization's first sync connects it again, and verifies it: the old key stays dead, and no new one is made.
    await deployMemberRole(awsId, fleet.externalId!);
    await verifyFleet(fleet);
    const org = (await ctx.http.get(`/organizations/${fleet.orgId}`).set(tenant.auth).expect(200)).body;
    expect(org.accounts.find((m: Member) => m.aws_account_id === awsId)).toMatchObject({
      state: 'monitored',
      account_status: 'ACTIVE',
    });
    expect((await probe(key)).status).toBe(401);
    const working = await ctx.db
      .selectFrom('account_event_keys as k')
      .innerJoin('accounts as a', 'a.id', 'k.account_id')
      .select('k.key_hash')
      .where('a.aws_account_id', '=', awsId)
      .where('a.tenant_id', '=', tenant.tenantId)
      .where((eb) => eb.or([eb('k.expires_at', 'is', null), eb('k.expires_at', '>', new Date())]))
      .execute();
    expect(working).toEqual([]);

    // The audit log says the organization connected it, with nobody signed in.
    const { events } = (
      await ctx.http.get('/audit-log').query({ action: 'account.connected' }).set(tenant.auth).expect(200)
    ).body as { events: { actor: unknown; target: string; details: Record<string, unknown> }[] };
    expect(events[0]).toMatchObject({
      actor: null,
      target: `account:${awsId}`,
      details: { organization_id: fleet.orgId },
    });
    expect(events[1]).toMatchObject({ actor: { user_id: tenant.userId }, target: `account:${awsId}` });
  });

  it('answers 429 past 10 syncs asked for per organization and 20 per tenant an hour', async () => {
    const [first, second] = fleets as [(typeof fleets)[number], (typeof fleets)[number]];
    await verifyFleet(second);
    const sync = (orgId: string) => ctx.http.post(`/organizations/${orgId}/sync`).set(tenant.auth);
    for (let i = 0; i < SYNCS_PER_ORGANIZATION; i += 1) await sync(first.orgId!).expect(202);
    const perOrganization = await sync(first.orgId!).expect(429);
    expect(perOrganization.body).toMatchObject({ code: 'rate_limited' });
    expect(perOrganization.body.error).toContain('per organization');
    expect(Number(perOrganization.headers['retry-after'])).toBeGreaterThan(0);
    // The refused request counted toward the tenant's 20 too: 9 more fit, for the other organization.
    for (let i = 0; i < SYNCS_PER_TENANT - SYNCS_PER_ORGANIZATION - 1; i += 1) await sync(second.orgId!).expect(202);
    const perTenant = await sync(second.orgId!).expect(429);
    expect(perTenant.body.error).toBe(`At most ${SYNCS_PER_TENANT} organization syncs per tenant per hour`);
  });
});

describe('roles on the organization routes', () => {
  it('lets a viewer read but not connect, verify, sync or disconnect', async () => {
    await ctx.http.get('/organizations').set(viewer.auth).expect(200);
    const refused = [
      ctx.http.post('/organizations').set(viewer.auth).send({ management_account_id: '111111111111' }),
      ctx.http.post('/organizations/org_01NOTHING0000000000000000/verify').set(viewer.auth),
      ctx.http.post('/organizations/org_01NOTHING0000000000000000/sync').set(viewer.auth),
      ctx.http.delete('/organizations/org_01NOTHING0000000000000000').set(viewer.auth),
    ];
    for (const res of await Promise.all(refused))
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'forbidden' });
  });

  it('answers 404 for an organization id the tenant does not have', async () => {
    expect(
      (await ctx.http.get('/organizations/org_01NOTHING0000000000000000').set(viewer.auth).expect(404)).body.code,
    ).toBe('not_found');
  });
});
